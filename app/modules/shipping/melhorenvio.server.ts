import { z } from 'zod';

import { callOutsideService } from '~/lib/http-client.server';

import { QuoteRefused, type CarrierQuote, type QuoteRequest, type ShippingProvider } from './types';

export interface MelhorEnvioOptions {
  /** Base including the version: https://melhorenvio.com.br/api/v2 (or its sandbox, a fake). */
  apiUrl: string;
  token: string;
  /**
   * 'Loja (contato@loja.com.br)': Melhor Envio refuses calls that do not name who makes them.
   * Read on each call, as it follows the store's name and e-mail unless set.
   */
  userAgent: () => Promise<string>;
  fetch?: typeof fetch;
}

const MAX_RESPONSE_BYTES = 512 * 1024;

/** Prices come as strings ("20.83") or numbers, in reais. */
const reais = z.union([z.string(), z.number()]).transform((value, context) => {
  const amount = Number(value);
  if (!Number.isFinite(amount) || amount < 0) {
    context.addIssue({ code: 'custom', message: 'not an amount' });
    return z.NEVER;
  }
  return Math.round(amount * 100);
});

/** One entry of the calculate answer: a priced service, or one that says why it cannot carry. */
const serviceAnswer = z.object({
  id: z.union([z.number(), z.string()]),
  name: z.string(),
  error: z.string().optional(),
  price: reais.optional(),
  custom_price: reais.optional(),
  delivery_time: z.number().int().nonnegative().optional(),
  custom_delivery_time: z.number().int().nonnegative().optional(),
  company: z.object({ name: z.string() }).optional(),
});

export function createMelhorEnvio(options: MelhorEnvioOptions): ShippingProvider {
  return {
    name: 'melhorenvio',
    async quote(request: QuoteRequest, signal: AbortSignal): Promise<CarrierQuote[]> {
      const answer = await callOutsideService(`${options.apiUrl}/me/shipment/calculate`, {
        service: 'melhorenvio',
        method: 'POST',
        headers: {
          Authorization: `Bearer ${options.token}`,
          Accept: 'application/json',
          'Content-Type': 'application/json',
          'User-Agent': await options.userAgent(),
        },
        body: JSON.stringify(calculateBody(request)),
        // The caller's deadline (the shopper waits) ends the call; this is only the upper bound.
        timeoutMs: 10_000,
        signal,
        maxResponseBytes: MAX_RESPONSE_BYTES,
        secrets: [options.token],
        fetch: options.fetch,
      });
      if (answer.status >= 400 && answer.status < 500 && answer.status !== 429) {
        throw new QuoteRefused(answer.status);
      }
      if (!answer.ok) throw new Error(`Melhor Envio answered ${answer.status} to a quote`);
      return parseQuotes(answer.text);
    },
  };
}

/** The calculate call's body: one package, weight in kilograms, sides in centimetres. */
export function calculateBody(request: QuoteRequest) {
  return {
    from: { postal_code: request.fromCep },
    to: { postal_code: request.toCep },
    package: {
      weight: request.parcel.weightGrams / 1000,
      length: request.parcel.lengthCm,
      width: request.parcel.widthCm,
      height: request.parcel.heightCm,
    },
    options: { receipt: false, own_hand: false },
  };
}

/**
 * The services that can carry the parcel, at the price Melhor Envio charges the store
 * (`custom_price`, its `price` when absent). A service answering with an `error` is not offered,
 * nor is one without a price or a delivery time: nothing is promised that was not quoted.
 */
export function parseQuotes(text: string): CarrierQuote[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('Melhor Envio answered a quote with something other than JSON');
  }
  const list = z.array(z.unknown()).safeParse(json);
  if (!list.success)
    throw new Error('Melhor Envio answered a quote with something other than a list');
  const quotes: CarrierQuote[] = [];
  for (const entry of list.data) {
    const parsed = serviceAnswer.safeParse(entry);
    if (!parsed.success || parsed.data.error) continue;
    const service = parsed.data;
    const priceCents = service.custom_price ?? service.price;
    const businessDays = service.custom_delivery_time ?? service.delivery_time;
    if (priceCents === undefined || businessDays === undefined) continue;
    quotes.push({
      serviceId: String(service.id),
      carrier: service.company?.name ?? 'Transportadora',
      service: service.name,
      priceCents,
      businessDays,
    });
  }
  return quotes;
}
