import { connect } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';

/**
 * HTTP/1.1 over a bare socket. Node's own clients refuse to send most of what the fuzzer needs
 * (a Host with spaces, a NUL in a header, a lying Content-Length, a broken request line), so every
 * byte is written by hand and the answer is parsed by hand.
 */

export interface SendOptions {
  host: string;
  port: number;
  /** Everything to write at once: request line, headers, and the body. */
  data: Buffer;
  /** The answer to a HEAD carries headers only, whatever its Content-Length says. */
  head: boolean;
  /**
   * Half-close the socket this long after writing when no answer has come yet: for requests the
   * server may keep waiting on (a body shorter than its Content-Length, broken raw requests), the
   * end of the stream is how it learns that nothing more is coming.
   */
  halfCloseAfterMs?: number;
  /** Give up (and destroy the socket) after this long. */
  timeoutMs: number;
}

export type Outcome =
  /** A complete answer. */
  | 'response'
  /** An answer whose headers came but whose body stopped short (the server closed mid-body). */
  | 'truncated'
  /** The server closed (or reset) the connection without a single byte of answer. */
  | 'closed'
  | 'reset'
  | 'timeout'
  /** The connection failed in another way (refused: the server is down). */
  | 'error';

export interface RawResponse {
  outcome: Outcome;
  /** The final status (interim 1xx answers are skipped), when a status line arrived. */
  status?: number;
  headers: [name: string, value: string][];
  /** The raw head as received (status line and headers), for the echo check. */
  head: string;
  /** The body with chunked framing removed, still content-encoded. */
  body: Buffer;
  durationMs: number;
  errorCode?: string;
}

interface ParsedHead {
  status: number;
  headers: [string, string][];
  head: string;
  bodyStart: number;
}

/** Finds the final head in `buffer`, skipping 100 Continue and other interim answers. */
function parseHead(buffer: Buffer): ParsedHead | 'incomplete' | 'invalid' {
  let offset = 0;
  for (;;) {
    const end = buffer.indexOf('\r\n\r\n', offset);
    if (end === -1) return 'incomplete';
    const head = buffer.subarray(offset, end).toString('latin1');
    const [statusLine = '', ...lines] = head.split('\r\n');
    const match = /^HTTP\/\d\.\d (\d{3})/.exec(statusLine);
    if (!match) return 'invalid';
    const status = Number(match[1]);
    const bodyStart = end + 4;
    if (status >= 100 && status < 200 && status !== 101) {
      offset = bodyStart;
      continue;
    }
    const headers = lines.map((line): [string, string] => {
      const colon = line.indexOf(':');
      return colon === -1
        ? [line.toLowerCase(), '']
        : [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
    });
    return { status, headers, head, bodyStart };
  }
}

/** Removes chunked framing; 'incomplete' until the last chunk and the trailers have arrived. */
function dechunk(data: Buffer): Buffer | 'incomplete' | 'invalid' {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', offset);
    if (lineEnd === -1) return 'incomplete';
    const sizeText = data.subarray(offset, lineEnd).toString('latin1').split(';')[0]!.trim();
    if (!/^[0-9a-fA-F]{1,8}$/.test(sizeText)) return 'invalid';
    const size = parseInt(sizeText, 16);
    offset = lineEnd + 2;
    if (size === 0) {
      // Trailers, if any, end with an empty line.
      if (data.subarray(offset, offset + 2).toString('latin1') === '\r\n')
        return Buffer.concat(parts);
      return data.indexOf('\r\n\r\n', offset) === -1 ? 'incomplete' : Buffer.concat(parts);
    }
    if (data.length < offset + size + 2) return 'incomplete';
    parts.push(data.subarray(offset, offset + size));
    offset += size + 2;
  }
}

export function headerValue(
  headers: readonly [string, string][],
  name: string,
): string | undefined {
  return headers.find(([key]) => key === name)?.[1];
}

type BodyState = { complete: true; body: Buffer } | { complete: false } | { invalid: true };

function bodyState(buffer: Buffer, head: ParsedHead, isHead: boolean): BodyState {
  const { status, headers, bodyStart } = head;
  if (isHead || status === 204 || status === 304 || status === 101) {
    return { complete: true, body: Buffer.alloc(0) };
  }
  const data = buffer.subarray(bodyStart);
  const transferEncoding = headerValue(headers, 'transfer-encoding');
  if (transferEncoding && /chunked/i.test(transferEncoding)) {
    const body = dechunk(data);
    if (body === 'invalid') return { invalid: true };
    return body === 'incomplete' ? { complete: false } : { complete: true, body };
  }
  const length = headerValue(headers, 'content-length');
  if (length !== undefined) {
    const expected = Number(length);
    if (!Number.isSafeInteger(expected) || expected < 0) return { invalid: true };
    return data.length >= expected
      ? { complete: true, body: data.subarray(0, expected) }
      : { complete: false };
  }
  // No framing: the body runs until the server closes.
  return { complete: false };
}

export function send(options: SendOptions): Promise<RawResponse> {
  const started = performance.now();
  return new Promise((resolve) => {
    let buffer: Buffer = Buffer.alloc(0);
    let settled = false;
    const socket = connect({ host: options.host, port: options.port, allowHalfOpen: true });
    socket.setNoDelay(true);

    const finish = (outcome: Outcome, extra: Partial<RawResponse> = {}) => {
      if (settled) return;
      settled = true;
      clearTimeout(timeout);
      clearTimeout(halfClose);
      socket.destroy();
      resolve({
        outcome,
        headers: [],
        head: '',
        body: Buffer.alloc(0),
        durationMs: performance.now() - started,
        ...extra,
      });
    };

    /** Settles once the answer is whole; with `closed`, settles with whatever arrived. */
    const evaluate = (closed: boolean, errorCode?: string) => {
      if (buffer.length === 0) {
        if (closed)
          finish(errorCode && errorCode !== 'ECONNRESET' ? 'error' : 'closed', { errorCode });
        return;
      }
      const head = parseHead(buffer);
      if (head === 'invalid') return finish('error', { errorCode: 'INVALID_RESPONSE' });
      if (head === 'incomplete') {
        if (closed) finish('truncated', { errorCode, head: buffer.toString('latin1', 0, 2000) });
        return;
      }
      const meta = { status: head.status, headers: head.headers, head: head.head, errorCode };
      const state = bodyState(buffer, head, options.head);
      if ('invalid' in state) return finish('error', { ...meta, errorCode: 'INVALID_FRAMING' });
      if (state.complete) return finish('response', { ...meta, body: state.body });
      if (!closed) return;
      const framed =
        headerValue(head.headers, 'content-length') !== undefined ||
        /chunked/i.test(headerValue(head.headers, 'transfer-encoding') ?? '');
      finish(framed ? 'truncated' : 'response', { ...meta, body: buffer.subarray(head.bodyStart) });
    };

    const timeout = setTimeout(() => finish('timeout'), options.timeoutMs);
    let halfClose: NodeJS.Timeout | undefined;

    socket.on('connect', () => {
      // The server may answer (413, 400) and close before it has read everything; an EPIPE then
      // is expected and the answer already received still counts.
      socket.write(options.data, () => {
        if (options.halfCloseAfterMs !== undefined) {
          halfClose = setTimeout(() => socket.end(), options.halfCloseAfterMs);
        }
      });
    });
    socket.on('data', (chunk: Buffer) => {
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
      evaluate(false);
    });
    socket.on('end', () => evaluate(true));
    socket.on('close', () => evaluate(true));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? 'ERROR';
      if (code === 'ECONNRESET' || code === 'EPIPE') {
        if (buffer.length === 0) return finish('reset', { errorCode: code });
        return evaluate(true, code);
      }
      if (buffer.length === 0) return finish('error', { errorCode: code });
      evaluate(true, code);
    });
  });
}

/** The body with its Content-Encoding undone; undefined when it does not decode. */
export function decodeBody(response: RawResponse): Buffer | undefined {
  const encoding = (headerValue(response.headers, 'content-encoding') ?? '').trim().toLowerCase();
  try {
    let body: Buffer = response.body;
    if (body.length > 0) {
      if (encoding === 'br') body = brotliDecompressSync(body);
      else if (encoding === 'gzip' || encoding === 'x-gzip') body = gunzipSync(body);
      else if (encoding === 'deflate') {
        // "deflate" is zlib-wrapped by the standard, raw by some servers.
        try {
          body = inflateSync(body);
        } catch {
          body = inflateRawSync(body);
        }
      }
    }
    return body;
  } catch {
    return undefined;
  }
}
