import type { Db } from '~/db/database.server';
import { readSavedCep, savedCepCookieHeader, stateFromCep } from '~/modules/address/index.server';
import { priceRequestCart } from '~/modules/cart/index.server';
import { getProductWithVariants } from '~/modules/catalog/index.server';
import { BRAZIL_STATES, cepDigits, maskCep } from '~/modules/checkout';
import {
  estimatedDelivery,
  formatDeliveryDate,
  type DeliveryEstimate,
  type ShippingEstimate,
} from '~/modules/orders';
import { waitText } from '~/modules/rate-limits/index.server';
import type { StoreSettings } from '~/modules/settings';

import {
  cartGoods,
  productGoods,
  quoteForShopper,
  shippingOffer,
  type EstimatedGoods,
  type EstimateScope,
} from './shipping-quote.server';

export const CEP_INVALID = 'CEP inválido: use 8 números, como 01310-100.';
export const CEP_UNKNOWN = 'Não encontramos esse CEP. Confira os números.';
export const QUOTES_BUSY = (retryAfterSeconds: number) =>
  `Muitos cálculos de frete em pouco tempo. Tente de novo em ${waitText(retryAfterSeconds)}.`;

/**
 * An estimate, and how long the shopper must wait when their address spent its calls to the
 * carrier (the estimate then carries the store's rule, approximate).
 */
export interface ShopperEstimate {
  estimate: ShippingEstimate;
  retryAfterSeconds: number | null;
}

type EstimateSettings = Pick<StoreSettings, 'estimated_delivery_days' | 'timezone'>;

/** The estimate for a CEP as typed (01310-100 or 01310100). */
export function deliveryEstimate(
  typed: string,
  settings: EstimateSettings,
  now = new Date(),
): DeliveryEstimate {
  const digits = cepDigits(typed);
  if (!digits) return { ok: false, cep: typed.trim().slice(0, 9), error: CEP_INVALID };
  const state = stateFromCep(digits);
  if (!state) return { ok: false, cep: maskCep(digits), error: CEP_UNKNOWN };
  const days = settings.estimated_delivery_days;
  const due = estimatedDelivery(now, days, settings.timezone, state);
  const within = `Entrega em até ${days} ${days === 1 ? 'dia útil' : 'dias úteis'} para ${state}`;
  return {
    ok: true,
    cep: maskCep(digits),
    state,
    stateName: BRAZIL_STATES.find((candidate) => candidate.code === state)?.name ?? state,
    text: due
      ? `${within}: chega até ${formatDeliveryDate(due, { year: false })}, se o pagamento for confirmado hoje.`
      : `${within}, contados da confirmação do pagamento.`,
  };
}

/** The estimate for a CEP as typed, with the goods' shipping there. */
export async function estimateShipping(
  scope: EstimateScope,
  typed: string,
  goods: EstimatedGoods,
  settings: StoreSettings,
): Promise<ShopperEstimate> {
  const estimate = deliveryEstimate(typed, settings);
  if (!estimate.ok) return { estimate, retryAfterSeconds: null };
  const { quote, retryAfterSeconds } = await quoteForShopper(
    scope,
    goods.items,
    cepDigits(estimate.cep)!,
    settings,
  );
  return {
    estimate: {
      ...estimate,
      shipping: shippingOffer(quote, goods.subtotalCents, estimate.state, settings),
    },
    retryAfterSeconds,
  };
}

/**
 * A page's estimate: for the CEP in `?cep=` (the form sent without JavaScript), remembered in
 * the shopper's cookie when it is valid; otherwise for the CEP remembered before, if any. A
 * remembered CEP the store's carrier did not price (one it does not know, a carrier down or
 * slow, the address's calls spent) makes the page `private`: the page cache keeps none of them,
 * so a made-up CEP in the cookie adds no entry.
 */
export async function pageShippingEstimate(
  scope: EstimateScope,
  request: Request,
  goods: EstimatedGoods,
  settings: StoreSettings,
): Promise<{ estimate: ShippingEstimate | null; headers: Record<string, string> }> {
  const asked = new URL(request.url).searchParams.get('cep');
  if (asked !== null) {
    const { estimate } = await estimateShipping(scope, asked, goods, settings);
    return { estimate, headers: savedCepHeaders(estimate) };
  }
  const saved = readSavedCep(request);
  if (!saved) return { estimate: null, headers: {} };
  const { estimate } = await estimateShipping(scope, saved, goods, settings);
  const unpriced =
    !estimate.ok || (estimate.shipping.kind === 'rule' && estimate.shipping.approximate);
  return { estimate, headers: unpriced ? { 'Cache-Control': 'private' } : {} };
}

/** Set-Cookie for a valid estimate's CEP; nothing for an invalid one. */
export function savedCepHeaders(estimate: DeliveryEstimate): Record<string, string> {
  return estimate.ok
    ? { 'Set-Cookie': savedCepCookieHeader(estimate.cep.replace('-', '')) }
    : ({} as Record<string, string>);
}

/**
 * What `/frete` prices: one unit of the product `produto=<slug>` names (its `variante=<sku>`,
 * read from `readDb`), else the shopper's cart from its cookie; null for an unknown product.
 */
export async function askedGoods(
  scope: { db: Db; readDb: Db },
  request: Request,
  settings: StoreSettings,
): Promise<EstimatedGoods | null> {
  const query = new URL(request.url).searchParams;
  const slug = query.get('produto');
  if (slug !== null) {
    const product = await getProductWithVariants(scope.readDb, slug.slice(0, 200));
    return product ? productGoods(product.variants, query.get('variante')) : null;
  }
  const { cart } = await priceRequestCart(scope, request, settings, {
    paymentMethod: null,
    coupon: null,
  });
  return cartGoods(cart);
}
