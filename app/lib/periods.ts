import { dateFormat } from './date-format';

/**
 * Reporting periods as whole calendar days of the store's time zone, each with the period it is
 * compared with. Days are plain 'YYYY-MM-DD' strings and their arithmetic runs on UTC dates, so
 * neither the server's zone nor daylight saving can shift a day; the database turns a day into
 * instants itself (`day::timestamp at time zone <zone>`).
 */

/** The `period` values of the dashboard's URL (pt-BR, so shared links read naturally). */
export const PERIOD_KEYS = ['hoje', 'ontem', '7dias', 'mes', 'personalizado'] as const;
export type PeriodKey = (typeof PERIOD_KEYS)[number];

const DEFAULT_PERIOD: PeriodKey = 'hoje';

export const PERIOD_LABELS: Record<PeriodKey, string> = {
  hoje: 'Hoje',
  ontem: 'Ontem',
  '7dias': 'Últimos 7 dias',
  mes: 'Este mês',
  personalizado: 'Personalizado',
};

/** A custom period longer than this is cut to its last days (a year and a leap day). */
export const MAX_PERIOD_DAYS = 366;

export const PERIOD_MESSAGES = {
  missingDates:
    'Escolha a data inicial e a data final. Enquanto isso, mostramos os números de hoje.',
  invalidDates: 'As datas do período não são válidas. Mostramos os números de hoje.',
  swapped: 'A data inicial era depois da data final: invertemos as duas.',
  tooLong: `O período pode ter no máximo ${MAX_PERIOD_DAYS} dias: mostramos os ${MAX_PERIOD_DAYS} dias até a data final.`,
} as const;

/** Whole calendar days, both ends included. */
export interface DayRange {
  from: string;
  to: string;
}

export interface Period {
  key: PeriodKey;
  range: DayRange;
  /** The period of equal length it is compared with. */
  previous: DayRange;
  /** What was wrong with the URL and what is shown instead, in pt-BR; null when nothing was. */
  notice: string | null;
}

const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function toUtc(day: string): number {
  const [, year, month, date] = DATE.exec(day)!;
  return Date.UTC(Number(year), Number(month) - 1, Number(date));
}

function fromUtc(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

/** A real calendar day written as YYYY-MM-DD, within years a store can have orders in. */
export function isCalendarDay(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const year = Number(match[1]);
  return year >= 2000 && year <= 2100 && fromUtc(toUtc(text)) === text;
}

export function addDays(day: string, days: number): string {
  return fromUtc(toUtc(day) + days * DAY_MS);
}

/** How many days a range covers, both ends included. */
export function dayCount(range: DayRange): number {
  return Math.round((toUtc(range.to) - toUtc(range.from)) / DAY_MS) + 1;
}

/** The calendar day an instant falls on in a time zone, as YYYY-MM-DD. */
export function calendarDayIn(date: Date, timeZone: string): string {
  const parts = dateFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(date);
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** An instant as a datetime-local field shows it on a time zone's clock: 'YYYY-MM-DDTHH:mm'. */
export function wallClockIn(date: Date, timeZone: string): string {
  const parts = dateFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(date);
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}`;
}

/** Today's date on the store's calendar. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  return calendarDayIn(now, timeZone);
}

/** The range of equal length that ends the day before `range` starts. */
export function previousRange(range: DayRange): DayRange {
  const to = addDays(range.from, -1);
  return { from: addDays(to, 1 - dayCount(range)), to };
}

function lastDayOfMonth(year: number, monthIndex: number): number {
  return new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();
}

/**
 * This month up to `today`, compared with the same days of the previous month (1 to today's
 * day, cut at that month's last day: March 1–31 against February 1–28).
 */
export function monthToDate(today: string): { range: DayRange; previous: DayRange } {
  const [year, month, day] = today.split('-').map(Number) as [number, number, number];
  const previousYear = month === 1 ? year - 1 : year;
  const previousMonth = month === 1 ? 12 : month - 1;
  const previousDay = Math.min(day, lastDayOfMonth(previousYear, previousMonth - 1));
  const pad = (value: number) => String(value).padStart(2, '0');
  return {
    range: { from: `${today.slice(0, 8)}01`, to: today },
    previous: {
      from: `${previousYear}-${pad(previousMonth)}-01`,
      to: `${previousYear}-${pad(previousMonth)}-${pad(previousDay)}`,
    },
  };
}

function single(day: string): DayRange {
  return { from: day, to: day };
}

function periodOf(key: PeriodKey, range: DayRange, notice: string | null = null): Period {
  return { key, range, previous: previousRange(range), notice };
}

/** A custom period from the typed dates; a bad or missing date shows today (SPEC §5). */
function customPeriod(from: string, to: string, today: string): Period {
  if (!from || !to) return periodOf('personalizado', single(today), PERIOD_MESSAGES.missingDates);
  if (!isCalendarDay(from) || !isCalendarDay(to)) {
    return periodOf('personalizado', single(today), PERIOD_MESSAGES.invalidDates);
  }
  let range = { from, to };
  let notice: string | null = null;
  if (from > to) {
    range = { from: to, to: from };
    notice = PERIOD_MESSAGES.swapped;
  }
  if (dayCount(range) > MAX_PERIOD_DAYS) {
    range = { from: addDays(range.to, 1 - MAX_PERIOD_DAYS), to: range.to };
    notice = PERIOD_MESSAGES.tooLong;
  }
  return periodOf('personalizado', range, notice);
}

/**
 * The period a URL asks for (`period`, and `from`/`to` for 'personalizado'), on the calendar
 * whose current day is `today`. An unknown `period` means the default; nothing here throws.
 * SPEC §9: 'Últimos 7 dias' starts 7 days before today and runs through today; 'Este mês' starts
 * on day 1 and is compared with the same days of the previous month; the others with the days
 * just before them.
 */
export function resolvePeriod(search: URLSearchParams, today: string): Period {
  const asked = search.get('period') ?? '';
  const key = (PERIOD_KEYS as readonly string[]).includes(asked)
    ? (asked as PeriodKey)
    : DEFAULT_PERIOD;
  switch (key) {
    case 'hoje':
      return periodOf(key, single(today));
    case 'ontem':
      return periodOf(key, single(addDays(today, -1)));
    case '7dias':
      return periodOf(key, { from: addDays(today, -7), to: today });
    case 'mes': {
      const month = monthToDate(today);
      return { key, range: month.range, previous: month.previous, notice: null };
    }
    case 'personalizado':
      return customPeriod(
        (search.get('from') ?? '').trim(),
        (search.get('to') ?? '').trim(),
        today,
      );
  }
}

/** A value against the same value in the period before. */
export type Trend =
  | { kind: 'up' | 'down' | 'same'; percent: number }
  /** Nothing before, something now: no percentage means anything. */
  | { kind: 'new' }
  /** Nothing in either period. */
  | { kind: 'none' };

export function compareWithPrevious(current: number, previous: number): Trend {
  if (previous === 0) return current === 0 ? { kind: 'none' } : { kind: 'new' };
  const percent = Math.round(((current - previous) / previous) * 100);
  return { kind: percent > 0 ? 'up' : percent < 0 ? 'down' : 'same', percent: Math.abs(percent) };
}

/** '+12%', '−3%' (a real minus sign), '0%', 'novo' or '—'. */
export function formatTrend(trend: Trend): string {
  switch (trend.kind) {
    case 'up':
      return `+${trend.percent}%`;
    case 'down':
      return `−${trend.percent}%`;
    case 'same':
      return '0%';
    case 'new':
      return 'novo';
    case 'none':
      return '—';
  }
}

/** '05/03/2025' for '2025-03-05' (a calendar day: no time zone involved). */
export function formatDay(day: string): string {
  return `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;
}

/** 'de 01/03/2025 a 05/03/2025', or 'em 05/03/2025' for one day. */
export function describeRange(range: DayRange): string {
  return range.from === range.to
    ? `em ${formatDay(range.from)}`
    : `de ${formatDay(range.from)} a ${formatDay(range.to)}`;
}
