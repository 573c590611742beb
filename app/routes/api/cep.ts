import { data } from 'react-router';

import { parseEnv } from '~/lib/env.server';
import { methodNotAllowed } from '~/lib/form.server';
import { logger } from '~/lib/logger.server';
import { createCepLookup, type CepLookup } from '~/modules/address/index.server';
import { CHECKOUT_MESSAGES } from '~/modules/checkout';
import { hitRateLimit, RATE_LIMITS, waitText } from '~/modules/rate-limits/index.server';

import type { Route } from './+types/cep';

// One per process, so its cache and its coalescing of lookups serve every request. The
// environment was checked when the server started, so reading it again here cannot fail.
let cepLookup: CepLookup | undefined;

function getCepLookup(): CepLookup {
  cepLookup ??= createCepLookup({
    baseUrl: parseEnv().CEP_SERVICE_URL,
    onUnavailable: (error) => logger.warn({ err: error }, 'CEP service unavailable'),
  });
  return cepLookup;
}

export function action() {
  return methodNotAllowed('GET, HEAD');
}

/** The checkout asks for the address of the CEP the shopper typed, to fill the form in. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const cep = getCepLookup();
  // Only look-ups that reach the service count: they are what it could stop answering our
  // server for; an answer from the cache costs nothing.
  if (!cep.peek(params.cep)) {
    const limited = await hitRateLimit(context.db, RATE_LIMITS.cepLookup, {
      address: context.clientIp,
    });
    if (!limited.allowed) {
      return failure(
        429,
        `Muitas buscas de CEP em pouco tempo. Preencha o endereço manualmente ou aguarde ${waitText(limited.retryAfterSeconds)}.`,
        'no-store',
        { 'Retry-After': String(limited.retryAfterSeconds) },
      );
    }
  }
  const result = await cep.lookup(params.cep);
  if (result.ok) {
    return data(
      { ok: true as const, address: result.address },
      { headers: { 'Cache-Control': 'public, max-age=86400' } },
    );
  }
  switch (result.reason) {
    case 'invalid':
      return failure(400, CHECKOUT_MESSAGES.zipCodeInvalid);
    case 'not_found':
      return failure(404, 'CEP não encontrado. Preencha o endereço manualmente.');
    case 'unavailable':
      // The shopper did nothing wrong and the form works without the address filled in: a 200
      // the page reads like any other answer, never kept by a cache.
      return failure(
        200,
        'Não foi possível buscar o CEP agora. Preencha o endereço manualmente.',
        'no-store',
      );
  }
}

function failure(
  status: number,
  message: string,
  cacheControl = 'public, max-age=3600',
  headers: Record<string, string> = {},
) {
  return data(
    { ok: false as const, message },
    { status, headers: { 'Cache-Control': cacheControl, ...headers } },
  );
}
