import { decodeBody, headerValue, send, type RawResponse } from './http';
import { EVIL_HOST, serialize, type FuzzRequest } from './generate';

// What counts as a failure, and one exchange with the server checked against it.

export type FailureKind =
  | '5xx'
  | 'echoed-evil-host'
  | 'open-redirect'
  | 'path-traversal'
  | 'slow'
  | 'timeout'
  | 'no-answer'
  | 'truncated-answer'
  | 'bad-encoding'
  | 'connection-error'
  | 'foreign-text';

export interface Observation {
  request: FuzzRequest;
  response: RawResponse;
  failures: FailureKind[];
  /** Where an echo was found, for the report. */
  detail?: string;
}

export const HARD_TIMEOUT_MS = 10_000;

/** GET /healthz on a connection of its own. */
export function healthz(target: { host: string; port: number }): Promise<RawResponse> {
  return send({
    host: target.host,
    port: target.port,
    data: Buffer.from(
      `GET /healthz HTTP/1.1\r\nHost: ${target.host}:${target.port}\r\nConnection: close\r\n\r\n`,
    ),
    head: false,
    timeoutMs: HARD_TIMEOUT_MS,
  });
}
/** Give a server that is still reading a body we will never finish this long before we hang up. */
const HALF_CLOSE_MS = 400;
const EVIL = new RegExp(EVIL_HOST.replace('.', '\\.'), 'i');
/**
 * Text no answer of the store may show: React Router's and Node's English, and JavaScript's
 * insides (a lookup that reached an object's prototype, an error's name). Everything a shopper
 * or admin reads is pt-BR. Script files are not answers anyone reads, and carry these words.
 */
export const FOREIGN_TEXT =
  /Unexpected Server Error|Internal Server Error|You made an? [A-Z]+ request|\[native code\]|\b(?:Type|Reference|Syntax|Range)Error\b|\[object Object\]|No route matches URL/;
const READ_TYPES = /^(?:text\/(?:html|plain|x-script)|application\/json)/i;

/** Bytes that only a file outside the public folders would contain. */
const LEAK_MARKERS = [/root:x:0:0:/, /"name":\s*"vitrine"/, /repositoryformatversion/];

export function statusKey(response: RawResponse): string {
  return response.status !== undefined ? String(response.status) : response.outcome;
}

/** What is wrong with this exchange, if anything. */
export function check(
  request: FuzzRequest,
  response: RawResponse,
  options: { slowMs: number; host: string; port: number; redirectOrigins?: readonly string[] },
): { failures: FailureKind[]; detail?: string } {
  const failures: FailureKind[] = [];
  let detail: string | undefined;
  const halfClosed = request.partial || !!request.raw;
  switch (response.outcome) {
    case 'timeout':
      failures.push('timeout');
      break;
    case 'error':
      failures.push('connection-error');
      detail = response.errorCode;
      break;
    case 'closed':
      if (!request.mayClose) failures.push('no-answer');
      break;
    case 'truncated':
      if (!halfClosed) failures.push('truncated-answer');
      break;
    default:
      break;
  }
  // The maintenance page (a setting the admin may turn on) is a deliberate 503 that says when to
  // come back; any other 5xx is a failure.
  const maintenance =
    response.status === 503 && headerValue(response.headers, 'retry-after') !== undefined;
  if (response.status !== undefined && response.status >= 500 && !maintenance) {
    failures.push('5xx');
  }
  if (response.durationMs > options.slowMs && response.outcome !== 'timeout') failures.push('slow');

  if (EVIL.test(response.head)) {
    failures.push('echoed-evil-host');
    const line = response.head.split('\r\n').find((candidate) => EVIL.test(candidate));
    detail = `header: ${line?.slice(0, 200)}`;
  }
  if (response.body.length > 0) {
    const body = decodeBody(response);
    if (!body) {
      if (response.outcome === 'response') failures.push('bad-encoding');
    } else {
      const text = body.toString('latin1');
      const at = text.search(EVIL);
      if (at !== -1 && !failures.includes('echoed-evil-host')) {
        failures.push('echoed-evil-host');
        detail = `body: …${text.slice(Math.max(0, at - 80), at + 40).replace(/\s+/g, ' ')}…`;
      }
      if (response.status === 200 && LEAK_MARKERS.some((marker) => marker.test(text))) {
        failures.push('path-traversal');
      }
      const type = headerValue(response.headers, 'content-type') ?? '';
      const foreign = READ_TYPES.test(type) ? FOREIGN_TEXT.exec(body.toString('utf8')) : null;
      if (foreign && !request.plainPath.startsWith('/assets/')) {
        failures.push('foreign-text');
        detail ??= `body: …${text.slice(Math.max(0, foreign.index - 80), foreign.index + 80).replace(/\s+/g, ' ')}…`;
      }
    }
  }
  const location = headerValue(response.headers, 'location');
  if (location !== undefined && /^(\/[/\\]|[a-z][a-z0-9+.-]*:)/i.test(location.trim())) {
    let sameSite = false;
    try {
      const url = new URL(location.trim(), `http://${options.host}:${options.port}/`);
      sameSite =
        (url.host === `${options.host}:${options.port}` && /^https?:$/.test(url.protocol)) ||
        (options.redirectOrigins ?? []).includes(url.origin);
    } catch {
      // Unparseable: a browser would not follow it anywhere either; still worth a look.
    }
    if (!sameSite) {
      failures.push('open-redirect');
      detail = `location: ${location.slice(0, 200)}`;
    }
  }
  return { failures, detail };
}

export async function exchange(
  request: FuzzRequest,
  options: { host: string; port: number; slowMs: number; redirectOrigins?: readonly string[] },
): Promise<Observation> {
  const response = await send({
    host: options.host,
    port: options.port,
    data: serialize(request),
    head: request.method === 'HEAD',
    halfCloseAfterMs: request.partial || request.raw ? HALF_CLOSE_MS : undefined,
    timeoutMs: HARD_TIMEOUT_MS,
  });
  const { failures, detail } = check(request, response, options);
  return { request, response, failures, detail };
}
