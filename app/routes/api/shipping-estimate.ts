import { data } from 'react-router';

import { deliveryEstimate, savedCepHeaders } from '~/flows/delivery-estimate.server';
import { methodNotAllowed } from '~/lib/form.server';

import type { Route } from './+types/shipping-estimate';

export function action() {
  return methodNotAllowed('GET, HEAD');
}

/**
 * GET /frete?cep=01310-100: the state and delivery date for a CEP, asked by the 'Calcular frete'
 * form once JavaScript runs (without it, the form reloads its own page with the same query). A
 * valid CEP is remembered for the next estimate and the checkout.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const settings = await context.settings.get();
  const estimate = deliveryEstimate(new URL(request.url).searchParams.get('cep') ?? '', settings);
  // The date moves with the day, and a valid answer sets the cookie: never kept by a cache.
  const headers = { 'Cache-Control': 'no-store', ...savedCepHeaders(estimate) };
  return data(estimate, { status: estimate.ok ? 200 : 400, headers });
}
