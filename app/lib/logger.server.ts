import { pino } from 'pino';

// One JSON line per event on stdout, the format log collectors expect. The level is set from the
// checked environment when the app starts.
export const logger = pino({
  level: 'info',
  base: { service: 'vitrine' },
  redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
});
