import { pino } from 'pino';

// One JSON line per event on stdout, the format log collectors expect. The level is set from the
// checked environment when the app starts.
export const logger = pino({
  level: 'info',
  base: { service: 'vitrine' },
  redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
});

// Query values that open something on their own: an order link's `chave`, and the usual names of
// tokens, keys, codes and passwords. The names stay, so the log still says what was asked.
const SECRET_PARAM =
  /^(chave|senha|codigo|code|token|.*_token|key|.*_key|apikey|secret|password|pass|sig|signature|auth|hash)$/i;

/**
 * A request line's level: an answered request at `debug`, so at the default `info` the log is the
 * store's events and not every page view (a merchant starting the store reads the setup code's box
 * in the same terminal, which a line per request scrolled away within seconds); a refusal at
 * `warn` and a failure at `error` whatever the level. LOG_LEVEL=debug writes every request.
 */
export function requestLogLevel(status: number, error?: unknown): 'debug' | 'warn' | 'error' {
  return error || status >= 500 ? 'error' : status >= 400 ? 'warn' : 'debug';
}

/** A request path for the log, with credential-like query values replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  const params = url
    .slice(query + 1)
    .split('&')
    .map((param) => {
      const equals = param.indexOf('=');
      if (equals < 0) return param;
      let name = param.slice(0, equals);
      try {
        name = decodeURIComponent(name.replaceAll('+', ' '));
      } catch {
        // A malformed name is logged as sent; its value is hidden below all the same.
        return `${param.slice(0, equals)}=[redacted]`;
      }
      return SECRET_PARAM.test(name.trim()) ? `${param.slice(0, equals)}=[redacted]` : param;
    });
  return `${url.slice(0, query)}?${params.join('&')}`;
}
