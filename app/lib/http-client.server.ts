import { request as httpsRequest, type Agent as HttpsAgent } from 'node:https';
import { Readable } from 'node:stream';

import { outsideServiceFailures } from './metrics.server';
import { readCappedText, ResponseTooLarge } from './read-capped.server';

/** Why a call to an outside service gave no usable answer. */
export type OutsideFailure = 'timeout' | 'aborted' | 'network' | 'too-large';

/**
 * A call that gave no usable answer. Its message never carries a secret the call was given: an
 * HTTP library may quote a header value it refused, and a service may echo what it was sent.
 */
export class OutsideServiceError extends Error {
  constructor(
    readonly failure: OutsideFailure,
    message: string,
    /** The answer's status when one came before the failure (a body over the size cap). */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'OutsideServiceError';
  }
}

export interface OutsideRequest {
  /** Which service ('payment-gateway', 'cep'), as /metrics counts its failures: never a URL. */
  service: string;
  /** PUT and PATCH as the API Pix writes charges: idempotent by the path they name. */
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH';
  headers?: Record<string, string>;
  /** Sent as it is; callers write their JSON. */
  body?: string;
  /** The whole call, answer read to its end, in one budget per attempt. */
  timeoutMs: number;
  /** An answer longer than this is refused while it arrives, never read whole. */
  maxResponseBytes: number;
  /** Strings written as *** in every error: keys and tokens in headers or the URL. */
  secrets?: readonly string[];
  /**
   * Attempts after the first, after a network failure or a 502/503/504. Only for a call that may
   * run twice: a GET, or a POST the service deduplicates by `idempotencyKey`.
   */
  retries?: number;
  /** Sent as the Idempotency-Key header (or `idempotencyHeader`); makes a POST safe to retry. */
  idempotencyKey?: string;
  /** The header a service reads the key from, when it is not Idempotency-Key. */
  idempotencyHeader?: string;
  /** A redirect would carry the secrets to wherever it points: refused unless asked for. */
  redirect?: 'error' | 'follow';
  /** Ends the call early (the caller's own deadline). */
  signal?: AbortSignal;
  /**
   * An https agent holding a client certificate: the call goes over mutual TLS (a bank's API
   * Pix). Kept by the caller, so its connections are reused.
   */
  agent?: HttpsAgent;
  fetch?: typeof fetch;
  /** The pause before retry n (1-based); short, as a person or a job is waiting. */
  retryDelayMs?: (attempt: number) => number;
}

export interface OutsideAnswer {
  status: number;
  ok: boolean;
  /** The body as text, whatever the status. */
  text: string;
}

const RETRIED_STATUSES = new Set([502, 503, 504]);

/** `text` with every secret written as ***. */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  return secrets.reduce(
    (result, secret) => (secret ? result.split(secret).join('***') : result),
    text,
  );
}

/** fetch() reports every network failure as 'fetch failed'; the reason is in its cause. */
function networkReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? error.cause.message : error.message;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One call to an outside service (the payment gateway, the CEP service, UTMify), with the rules
 * every such call keeps: a time limit, a cap on the answer's size, no redirect that would carry
 * a key, secrets kept out of errors, and retries only where running twice is harmless. Any HTTP
 * answer is returned, a refusal included; only no usable answer throws OutsideServiceError.
 */
export async function callOutsideService(
  url: string,
  request: OutsideRequest,
): Promise<OutsideAnswer> {
  const method = request.method ?? 'GET';
  const retries = request.retries ?? 0;
  // A PUT names what it writes (the API Pix's charge by its txid): sent twice, it is one.
  if (retries > 0 && method !== 'GET' && method !== 'PUT' && !request.idempotencyKey) {
    throw new TypeError('Only a GET, a PUT or a POST with an idempotency key may be retried');
  }
  const delay = request.retryDelayMs ?? ((attempt) => 200 * attempt);
  const failed = (failure: string) =>
    outsideServiceFailures.inc({ service: request.service, failure });
  for (let attempt = 0; ; attempt++) {
    const last = attempt >= retries;
    try {
      const answer = await attemptCall(url, method, request);
      if (answer.status >= 500) failed(`status-${answer.status}`);
      if (last || !RETRIED_STATUSES.has(answer.status)) return answer;
    } catch (error) {
      if (error instanceof OutsideServiceError && error.failure !== 'aborted')
        failed(error.failure);
      if (last || !(error instanceof OutsideServiceError) || error.failure !== 'network') {
        throw error;
      }
    }
    await pause(delay(attempt + 1));
    if (request.signal?.aborted) throw new OutsideServiceError('aborted', 'Call aborted');
  }
}

/**
 * fetch() over node:https with the caller's agent: Node's fetch takes no client certificate
 * without undici's own Agent, which is no dependency of ours. Only what callOutsideService asks
 * of fetch: method, headers, body, signal and no redirect followed (https.request follows none;
 * a 3xx is refused as fetch's redirect: 'error' would).
 */
function fetchThrough(agent: HttpsAgent): typeof fetch {
  return (input, init) =>
    new Promise<Response>((resolve, reject) => {
      const call = httpsRequest(
        String(input),
        {
          method: init?.method ?? 'GET',
          headers: init?.headers as Record<string, string> | undefined,
          agent,
          signal: init?.signal ?? undefined,
        },
        (answer) => {
          const status = answer.statusCode ?? 0;
          if (status >= 300 && status < 400) {
            answer.destroy();
            reject(new TypeError('fetch failed', { cause: new Error('Redirect refused') }));
            return;
          }
          const headers = new Headers();
          for (const [name, value] of Object.entries(answer.headers)) {
            if (value !== undefined)
              headers.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          const body = status === 204 ? null : (Readable.toWeb(answer) as ReadableStream);
          resolve(new Response(body, { status, headers }));
        },
      );
      call.on('error', (error) => reject(new TypeError('fetch failed', { cause: error })));
      call.end(typeof init?.body === 'string' ? init.body : undefined);
    });
}

async function attemptCall(
  url: string,
  method: NonNullable<OutsideRequest['method']>,
  request: OutsideRequest,
): Promise<OutsideAnswer> {
  const timeout = AbortSignal.timeout(request.timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
  const hide = (text: string) => redactSecrets(text, request.secrets);
  const headers = request.idempotencyKey
    ? {
        ...request.headers,
        [request.idempotencyHeader ?? 'Idempotency-Key']: request.idempotencyKey,
      }
    : request.headers;
  let status: number | undefined;
  try {
    const send = request.fetch ?? (request.agent ? fetchThrough(request.agent) : fetch);
    const response = await send(url, {
      method,
      headers,
      body: request.body,
      redirect: request.redirect ?? 'error',
      signal,
    });
    status = response.status;
    const text = await readCappedText(response, request.maxResponseBytes);
    return { status, ok: response.ok, text };
  } catch (error) {
    if (error instanceof ResponseTooLarge) {
      throw new OutsideServiceError(
        'too-large',
        `Answer over ${request.maxResponseBytes} bytes`,
        status,
      );
    }
    if (timeout.aborted) {
      throw new OutsideServiceError('timeout', `No answer within ${request.timeoutMs} ms`, status);
    }
    if (request.signal?.aborted) throw new OutsideServiceError('aborted', 'Call aborted', status);
    throw new OutsideServiceError('network', hide(networkReason(error)), status);
  }
}
