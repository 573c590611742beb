// Loaded into the server with `--import` when a bench profiles it (PROFILE_DIR): notes when each
// request starts and finishes, on the clock V8's CPU profile keeps (microseconds of the monotonic
// clock), and writes them beside the profile as spans-PID.json when the process exits. So
// bench/profile-summary.ts can split a profile by request (BY_REQUEST). The server's own code is
// left as it is.
import { mkdirSync, writeFileSync } from 'node:fs';
import { Server } from 'node:http';
import { join } from 'node:path';

/** @typedef {(this: Server, event: string, ...args: unknown[]) => boolean} Emit */

const folder = process.env.PROFILE_DIR;
if (folder) {
  /** @type {[string, number, number][]} */
  const spans = [];
  const emit = /** @type {Emit} */ (Server.prototype.emit);
  /** @type {Emit} */
  const noting = function (event, ...args) {
    if (event === 'request') {
      const [request, response] =
        /** @type {[import('node:http').IncomingMessage, import('node:http').ServerResponse]} */ (
          args
        );
      const started = process.hrtime.bigint() / 1000n;
      const name = `${request.method} ${(request.url ?? '').split('?')[0]}`;
      response.once('finish', () =>
        spans.push([name, Number(started), Number(process.hrtime.bigint() / 1000n)]),
      );
    }
    return emit.call(this, event, ...args);
  };
  Server.prototype.emit = /** @type {Server['emit']} */ (/** @type {unknown} */ (noting));
  process.on('exit', () => {
    // V8 makes the folder only as it writes the profile, after this.
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `spans-${process.pid}.json`), JSON.stringify(spans));
  });
}
