import { data } from 'react-router';

import {
  askedGoods,
  estimateShipping,
  QUOTES_BUSY,
  savedCepHeaders,
} from '~/flows/delivery-estimate.server';
import { methodNotAllowed } from '~/lib/form.server';

import type { Route } from './+types/shipping-estimate';

const PRODUCT_NOT_FOUND = 'Produto não encontrado.';

export function action() {
  return methodNotAllowed('GET, HEAD');
}

/**
 * GET /frete?cep=01310-100: the state, the delivery date and the shipping options for a CEP,
 * asked by the 'Calcular frete' forms and the checkout once JavaScript runs (without it, the form
 * reloads its own page with the same query). It prices the cart (from its cookie) or, with
 * `produto=<slug>` (and `variante=<sku>`), one unit of that product. A valid CEP is remembered
 * for the next estimate and the checkout.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const settings = await context.settings.get();
  const query = new URL(request.url).searchParams;
  // The date moves with the day, and a valid answer sets the cookie: never kept by a cache.
  const noStore = { 'Cache-Control': 'no-store' };
  const goods = await askedGoods(context, request, settings);
  if (!goods) {
    return data(
      { ok: false as const, cep: '', error: PRODUCT_NOT_FOUND },
      {
        status: 404,
        headers: noStore,
      },
    );
  }
  const { estimate, retryAfterSeconds } = await estimateShipping(
    context,
    query.get('cep') ?? '',
    goods,
    settings,
  );
  if (retryAfterSeconds !== null) {
    return data(
      { ok: false as const, cep: estimate.cep, error: QUOTES_BUSY(retryAfterSeconds) },
      { status: 429, headers: { ...noStore, 'Retry-After': String(retryAfterSeconds) } },
    );
  }
  return data(estimate, {
    status: estimate.ok ? 200 : 400,
    headers: { ...noStore, ...savedCepHeaders(estimate) },
  });
}
