import { pino } from 'pino';

// One JSON line per event on stdout, the format log collectors expect.
export const logger = pino({
  level: process.env.LOG_LEVEL || 'info',
  base: { service: 'vitrine' },
  redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
});
