const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * The Intl.DateTimeFormat for a locale and options, made once: building one costs far more than
 * formatting with it, and pages and exports format on every request and every row.
 */
export function dateFormat(
  locale: string,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  const key = `${locale} ${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    formats.set(key, format);
  }
  return format;
}

// Every date a person reads is written in one of these styles, so one list, admin or e-mail
// never says the same moment two ways.
const DATE_STYLES = {
  /** 10/03/2025 */
  date: { day: '2-digit', month: '2-digit', year: 'numeric' },
  /** 10 de março de 2025 */
  long: { dateStyle: 'long' },
  /** 14:30 */
  time: { hour: '2-digit', minute: '2-digit' },
  /** Horário Padrão de Brasília */
  zone: { timeZoneName: 'long' },
  /** sexta-feira, 4 de dezembro de 2026 */
  weekday: { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' },
  /** sexta-feira, 4 de dezembro: a day a few days ahead */
  weekdayNoYear: { weekday: 'long', day: 'numeric', month: 'long' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

type DateStyle = keyof typeof DATE_STYLES;

/** The pt-BR formatter of one style on the store's clock. */
function storeDateFormat(timeZone: string, style: DateStyle): Intl.DateTimeFormat {
  return dateFormat('pt-BR', { timeZone, ...DATE_STYLES[style] });
}

/** "10/03/2025" (or "10 de março de 2025" in the long style) on the store's calendar. */
export function formatDate(date: Date, timeZone: string, style: 'date' | 'long' = 'date'): string {
  return storeDateFormat(timeZone, style).format(date);
}

/**
 * "10/03/2025 às 14:30" on the store's clock; with `zone`, the zone's name after it, for a
 * reader who may be elsewhere (a deadline in an e-mail).
 */
export function formatDateTime(date: Date, timeZone: string, { zone = false } = {}): string {
  const text = `${formatDate(date, timeZone)} às ${storeDateFormat(timeZone, 'time').format(date)}`;
  if (!zone) return text;
  const name = storeDateFormat(timeZone, 'zone')
    .formatToParts(date)
    .find((part) => part.type === 'timeZoneName')?.value;
  return name ? `${text} (${name})` : text;
}

/**
 * "sexta-feira, 4 de dezembro de 2026" for a calendar day written YYYY-MM-DD; without the year
 * when told. The day is no moment, so no time zone moves it.
 */
export function formatCalendarDay(day: string, { year = true } = {}): string {
  const [y, m, d] = day.split('-').map(Number);
  return storeDateFormat('UTC', year ? 'weekday' : 'weekdayNoYear').format(
    new Date(Date.UTC(y!, m! - 1, d!)),
  );
}
