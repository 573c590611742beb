import { data } from 'react-router';

import { CheckoutPage, type ShippingAnswer } from '~/components/store/checkout-page';
import { seoContext } from '~/components/store/store-data';
import { checkoutPage, submitCheckout } from '~/flows/purchase.server';
import { refuseOtherMethods } from '~/lib/form.server';
import { seoMeta } from '~/lib/seo';

import type { Route } from './+types/checkout';

export async function loader({ request, context }: Route.LoaderArgs) {
  const { page, headers, status } = await checkoutPage(context, request);
  return data(page, { headers, status });
}

export async function action({ request, context }: Route.ActionArgs) {
  return refuseOtherMethods(request) ?? submitCheckout(context, request);
}

/** The 429's Retry-After reaches the browser too (only Set-Cookie passes on its own). */
export function headers({ actionHeaders, loaderHeaders }: Route.HeadersArgs) {
  const retryAfter = actionHeaders.get('Retry-After') ?? loaderHeaders.get('Retry-After');
  return retryAfter ? { 'Retry-After': retryAfter } : loaderHeaders;
}

export function meta({ matches }: Route.MetaArgs) {
  return seoMeta(seoContext(matches), {
    title: 'Finalizar compra',
    path: '/checkout',
    noindex: true,
  });
}

export default function Checkout({ loaderData, actionData }: Route.ComponentProps) {
  const reply = actionData && 'toast' in actionData ? actionData : undefined;
  const refused = reply && !reply.ok ? reply : undefined;
  // A coupon applied in this request: the page as priced with it.
  const applied = reply && reply.ok && 'cart' in reply ? reply : undefined;
  // A refusal that came before the fields were read (too many tries, no payment, a taken
  // order) has none to show again: the form starts over from the saved CEP.
  const sent = refused?.values ?? applied?.values;
  return (
    <CheckoutPage
      view={{
        ...loaderData,
        cart: applied?.cart ?? loaderData.cart,
        coupon: applied ? applied.coupon : loaderData.coupon,
        // The refusal's options are those of the CEP it sent (the union of refusals types it
        // loosely).
        shipping:
          (refused && 'shipping' in refused
            ? (refused.shipping as ShippingAnswer | null)
            : undefined) ?? loaderData.shipping,
        values: sent && Object.keys(sent).length > 0 ? sent : loaderData.prefill,
        fieldErrors: refused?.fieldErrors ?? {},
        error: refused?.toast.message,
        payNow: refused && 'payNow' in refused ? (refused.payNow as string | undefined) : undefined,
      }}
    />
  );
}
