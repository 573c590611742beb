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
