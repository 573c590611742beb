import { createServer } from 'node:net';

/**
 * A TCP port free on 127.0.0.1 now, for a server that cannot pick its own (nginx, PostgreSQL, a
 * bench's server whose address is set before it starts).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
