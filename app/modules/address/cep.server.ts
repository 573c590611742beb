import { z } from 'zod';

import { callOutsideService } from '~/lib/http-client.server';
import { BRAZIL_STATES, cepDigits, type StateCode } from '~/modules/checkout';

/** An address as the CEP service knows it; street and neighbourhood are blank for a town with one CEP. */
export interface CepAddress {
  /** 8 digits. */
  zipCode: string;
  street: string;
  neighborhood: string;
  city: string;
  state: StateCode;
}

export type CepLookupResult =
  | { ok: true; address: CepAddress }
  | { ok: false; reason: 'invalid' | 'not_found' | 'unavailable' };

export interface CepLookup {
  /** Takes '01310100' or '01310-100'. Never rejects: a failure is a result. */
  lookup(cep: string): Promise<CepLookupResult>;
  /** The answer known without asking the service (a malformed or remembered CEP), if any. */
  peek(cep: string): CepLookupResult | undefined;
}

export interface CepLookupOptions {
  /** Where the service answers in ViaCEP's format, `{baseUrl}/{cep}/json/`. */
  baseUrl: string;
  timeoutMs?: number;
  /** Most CEPs remembered; the least recently asked go first. */
  cacheSize?: number;
  ttlMs?: number;
  fetch?: typeof fetch;
  /** Hears why the service could not be used (a timeout, an HTTP error, a malformed answer). */
  onUnavailable?: (cause: unknown) => void;
  now?: () => number;
}

// ViaCEP answers a few hundred bytes; anything much larger is not an address.
const MAX_ANSWER_BYTES = 16 * 1024;

const INVALID: CepLookupResult = Object.freeze({ ok: false, reason: 'invalid' });
const NOT_FOUND: CepLookupResult = Object.freeze({ ok: false, reason: 'not_found' });
const UNAVAILABLE: CepLookupResult = Object.freeze({ ok: false, reason: 'unavailable' });

// The caps match the checkout form's, so a filled-in address always passes it.
const viaCepAnswer = z.union([
  z.object({ erro: z.union([z.literal(true), z.literal('true')]) }),
  z.object({
    logradouro: z.string().trim().max(160).default(''),
    bairro: z.string().trim().max(80).default(''),
    localidade: z.string().trim().min(1).max(80),
    uf: z
      .string()
      .trim()
      .toUpperCase()
      .pipe(z.enum(BRAZIL_STATES.map((state) => state.code))),
  }),
]);

/**
 * Finds the address of a CEP. One instance per process: it remembers answers (found and not
 * found, never failures) and asks the service once for a CEP many shoppers type at the same time.
 */
export function createCepLookup(options: CepLookupOptions): CepLookup {
  const {
    timeoutMs = 3_000,
    cacheSize = 1_000,
    ttlMs = 24 * 60 * 60 * 1_000,
    fetch: fetchAnswer,
    onUnavailable,
    now = Date.now,
  } = options;
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  // A Map keeps insertion order: re-inserting on every hit keeps the least recently used first.
  const cache = new Map<string, { result: CepLookupResult; expiresAt: number }>();
  const pending = new Map<string, Promise<CepLookupResult>>();

  function recall(cep: string): CepLookupResult | undefined {
    const entry = cache.get(cep);
    if (!entry) return undefined;
    cache.delete(cep);
    if (entry.expiresAt <= now()) return undefined;
    cache.set(cep, entry);
    return entry.result;
  }

  function remember(cep: string, result: CepLookupResult) {
    cache.set(cep, { result, expiresAt: now() + ttlMs });
    for (const oldest of cache.keys()) {
      if (cache.size <= cacheSize) break;
      cache.delete(oldest);
    }
  }

  async function ask(cep: string): Promise<CepLookupResult> {
    try {
      const response = await callOutsideService(`${baseUrl}/${cep}/json/`, {
        service: 'cep',
        headers: { Accept: 'application/json' },
        timeoutMs,
        maxResponseBytes: MAX_ANSWER_BYTES,
        // No retry, though a GET is safe to repeat: the shopper is waiting, and an address the
        // service cannot give is typed in by hand.
        fetch: fetchAnswer,
      });
      if (!response.ok) throw new Error(`CEP service answered HTTP ${response.status}`);
      const answer = viaCepAnswer.parse(JSON.parse(response.text));
      if ('erro' in answer) return NOT_FOUND;
      const address: CepAddress = {
        zipCode: cep,
        street: answer.logradouro,
        neighborhood: answer.bairro,
        city: answer.localidade,
        state: answer.uf,
      };
      // Every caller and the cache share this object.
      return Object.freeze({ ok: true, address: Object.freeze(address) });
    } catch (error) {
      try {
        onUnavailable?.(error);
      } catch {
        // A failing logger must not turn a handled failure into a thrown one.
      }
      return UNAVAILABLE;
    }
  }

  function peek(input: string): CepLookupResult | undefined {
    const cep = typeof input === 'string' ? cepDigits(input) : undefined;
    return cep ? recall(cep) : INVALID;
  }

  return {
    peek,
    lookup(input) {
      const known = peek(input);
      if (known) return Promise.resolve(known);
      const cep = cepDigits(input)!;
      let answer = pending.get(cep);
      if (!answer) {
        answer = ask(cep).then((result) => {
          pending.delete(cep);
          if (result.ok || result.reason === 'not_found') remember(cep, result);
          return result;
        });
        pending.set(cep, answer);
      }
      return answer;
    },
  };
}
