import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * Where the kernel picks the local ports of outgoing connections (Linux), and so of a listener
 * on port 0. A port handed out for a server to listen on later is chosen below it: between the
 * probe and the server's listen (seconds, for a server opening its database on a loaded machine)
 * any connection Chromium, PostgreSQL or a test makes could otherwise take it (EADDRINUSE seen in
 * a CI run under the CPU burner).
 */
function ephemeralStart(): number {
  try {
    const [start] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    return start && start > 12_000 ? start : 32_768;
  } catch {
    return 32_768;
  }
}

const LOWEST = 10_000;

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * A TCP port free on 127.0.0.1 now, for a server that cannot pick its own (nginx, PostgreSQL, a
 * bench's server or a store whose address is set before it starts), outside the range the kernel
 * gives outgoing connections. Random, so two test files asking at once rarely meet.
 */
export async function freePort(): Promise<number> {
  const highest = ephemeralStart() - 1;
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = LOWEST + Math.floor(Math.random() * (highest - LOWEST + 1));
    if (await canListen(port)) return port;
  }
  throw new Error(`No free port between ${LOWEST} and ${highest}`);
}
