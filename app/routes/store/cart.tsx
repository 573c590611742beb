import { useState } from 'react';
import { data, Link, redirect } from 'react-router';

import { CartLineItem, useOptimisticLines } from '~/components/store/cart-line';
import { CartSummary } from '~/components/store/cart-summary';
import { seoContext, useSettings } from '~/components/store/store-data';
import { CartIcon } from '~/components/ui/icons';
import { pageDeliveryEstimate } from '~/flows/delivery-estimate.server';
import { parseForm, refuseOtherMethods } from '~/lib/form.server';
import { keepDataAfter } from '~/lib/revalidation';
import { seoMeta } from '~/lib/seo';
import { refuseForm, successWithToast } from '~/lib/toast.server';
import { cartIntentSchema } from '~/modules/cart';
import {
  cartCookieHeader,
  priceRequestCart,
  readCart,
  updateCart,
} from '~/modules/cart/index.server';

import type { Route } from './+types/cart';

export async function loader({ request, context }: Route.LoaderArgs) {
  const settings = await context.settings.get();
  const { cart, headers } = await priceRequestCart(context, request, settings);
  const shipping = pageDeliveryEstimate(request, settings);
  const allHeaders = new Headers(headers);
  for (const [name, value] of Object.entries(shipping.headers)) allHeaders.append(name, value);
  return data({ ...cart, estimate: shipping.estimate }, { headers: allHeaders });
}

export const shouldRevalidate = keepDataAfter('/preferences');

/** The one cart action: add, buy, set, remove or clear, chosen by the form's `intent`. */
export async function action({ request, context }: Route.ActionArgs) {
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  const parsed = await parseForm(request, cartIntentSchema);
  if (!parsed.ok) return refuseForm(parsed.error);
  const intent = parsed.data;

  const settings = await context.settings.get();
  const update = await updateCart(context.db, await readCart(request), intent, settings);
  if (!update.ok) return refuseForm(update.error, {}, update.status);

  const headers = { 'Set-Cookie': await cartCookieHeader(update.lines) };
  if (intent.intent === 'buy') return redirect('/checkout', { headers });
  // A plain form post (no JavaScript yet) would render with the loaders reading the request's
  // old cookie; send the browser to read the cart again instead. Fetchers never ask for HTML.
  if (request.headers.get('Accept')?.includes('text/html')) {
    return redirect('/cart', { status: 303, headers });
  }
  const { count, message, capped } = update;
  return successWithToast(request, message, { count, capped }, headers);
}

export function meta({ matches }: Route.MetaArgs) {
  return seoMeta(seoContext(matches), { title: 'Carrinho', path: '/cart', noindex: true });
}

function EmptyCart() {
  const settings = useSettings();
  return (
    <div className="flex flex-col items-center gap-4 rounded-card border border-card-border bg-card px-4 py-12 text-center">
      <CartIcon className="h-12 w-12 text-icon" />
      <p className="text-lg font-semibold">{settings.empty_cart_message}</p>
      <Link to="/products" className="btn btn-primary">
        {settings.continue_shopping_text}
      </Link>
    </div>
  );
}

export default function CartPage({ loaderData, actionData }: Route.ComponentProps) {
  const lines = useOptimisticLines(loaderData.lines);
  // Said while the line disappears; the server's own answer goes with the line.
  const [removed, setRemoved] = useState('');
  const submitted = actionData && 'toast' in actionData ? actionData.toast.message : undefined;
  const messages = [...loaderData.notices, submitted, removed].filter(Boolean);

  return (
    <div className="section-spacing mx-auto max-w-store px-4">
      <h1 className="mb-6 text-2xl sm:text-3xl">Carrinho</h1>
      <div role="status" data-testid="cart-notices">
        {messages.length > 0 ? (
          <ul className="mb-6 flex flex-col gap-1 rounded-card border-l-4 border-accent bg-card p-4">
            {messages.map((message, index) => (
              <li key={index}>{message}</li>
            ))}
          </ul>
        ) : null}
      </div>
      {lines.length === 0 ? (
        <EmptyCart />
      ) : (
        <div className="grid items-start gap-6 lg:grid-cols-[1fr_22rem]">
          <ul className="flex flex-col gap-4" aria-label="Produtos no carrinho">
            {lines.map((line) => (
              <CartLineItem
                key={line.productId}
                line={line}
                onRemove={(name) => setRemoved(`“${name}” foi removido do seu carrinho.`)}
              />
            ))}
          </ul>
          <CartSummary lines={lines} estimate={loaderData.estimate} />
        </div>
      )}
    </div>
  );
}
