// npm run fuzz -- [--requests N] [--seconds N] [--seed N] [--concurrency N]
//                 [--url http://127.0.0.1:PORT [--pid PID]] [--replay INDEX]
//
// Fuzzes the HTTP server as the CI test does, with as many requests as asked. Without --url it
// builds if needed and starts its own production server on a fresh data folder (and checks its
// memory); with --url it fuzzes a server already running (memory only with --pid). Exits 1 on any
// failure. --replay sends one request of a run again and prints the exchange.
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';

import { startServer, type TestServer } from '../support/server';
import { FUZZ_REDIRECT_ORIGINS, FUZZ_SERVER_ENV } from './server-env';

import {
  buildDirectory,
  DEFAULT_REQUESTS,
  replay,
  runFuzz,
  settingsFromEnv,
  type FuzzOptions,
} from './fuzzer';
import { decodeBody } from './http';
import { tagsOf } from './generate';
import { describeRequest, formatReport, serverErrors } from './report';

const print = (line: string) => process.stdout.write(`${line}\n`);

function wholeNumber(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new Error(`--${name} must be a whole number, got "${raw}"`);
  }
  return value;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string' },
      requests: { type: 'string' },
      seconds: { type: 'string' },
      concurrency: { type: 'string' },
      url: { type: 'string' },
      pid: { type: 'string' },
      replay: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    print(
      'npm run fuzz -- [--requests N] [--seconds N] [--seed N] [--concurrency N] [--url URL [--pid PID]] [--replay INDEX]\n' +
        `Defaults: FUZZ_SEED / FUZZ_REQUESTS from the environment, else the CI run (${DEFAULT_REQUESTS} requests); ` +
        'no time limit unless --seconds or FUZZ_SECONDS.',
    );
    return 0;
  }
  const fromEnv = settingsFromEnv();
  const seed = wholeNumber('seed', values.seed, fromEnv.seed);
  const requests = wholeNumber('requests', values.requests, fromEnv.requests);
  const concurrency = wholeNumber('concurrency', values.concurrency, 8);
  // Asked for by hand, a run sends every request it was asked for unless told otherwise.
  const seconds =
    values.seconds !== undefined || process.env.FUZZ_SECONDS
      ? wholeNumber('seconds', values.seconds, fromEnv.seconds)
      : undefined;

  let server: TestServer | undefined;
  let url: URL;
  let pid: number | undefined;
  if (values.url) {
    url = new URL(values.url);
    pid = values.pid ? wholeNumber('pid', values.pid, 0) : undefined;
  } else {
    execFileSync(process.execPath, ['scripts/ensure-build.js'], {
      cwd: new URL('../../', import.meta.url).pathname,
      stdio: 'inherit',
    });
    server = await startServer({ env: FUZZ_SERVER_ENV });
    url = new URL(server.url);
    pid = server.child.pid;
  }
  const stopServer = async () => {
    if (server) await server.stop();
    server = undefined;
  };
  process.once('SIGINT', () => void stopServer().then(() => process.exit(130)));

  try {
    const options: FuzzOptions = {
      host: url.hostname,
      port: Number(url.port || 80),
      buildDir: buildDirectory(),
      seed,
      requests,
      seconds,
      concurrency,
      pid,
      log: print,
      redirectOrigins: FUZZ_REDIRECT_ORIGINS,
    };
    if (values.replay !== undefined) {
      const observation = await replay({
        ...options,
        index: wholeNumber('replay', values.replay, 0),
      });
      print(
        `Request #${observation.request.index} (${observation.request.target}): ${tagsOf(observation.request).join(' ')}`,
      );
      print(describeRequest(observation));
      print(
        `Answer: ${observation.response.status ?? observation.response.outcome} in ${Math.round(observation.response.durationMs)} ms`,
      );
      print(observation.response.head);
      print(
        (decodeBody(observation.response) ?? observation.response.body)
          .toString('utf8')
          .slice(0, 2000),
      );
      print(
        observation.failures.length > 0
          ? `Failures: ${observation.failures.join(', ')}`
          : 'No failure.',
      );
      return observation.failures.length > 0 ? 1 : 0;
    }
    const report = await runFuzz(options);
    print(formatReport(report));
    const errors = server ? serverErrors(server.output()) : [];
    if (errors.length > 0)
      print(`The server logged ${errors.length} errors; the first:\n${errors[0]}`);
    const ok =
      report.failureCount === 0 &&
      !report.aborted &&
      report.healthz?.status === 200 &&
      (report.memory?.ok ?? true);
    return ok ? 0 : 1;
  } finally {
    await stopServer();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  },
);
