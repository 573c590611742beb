import { useState } from 'react';
import { data, Link } from 'react-router';

import { CartLineItem, useOptimisticLines } from '~/components/store/cart-line';
import { CartSummary } from '~/components/store/cart-summary';
import { seoContext, useSettings } from '~/components/store/store-data';
import { CartIcon } from '~/components/ui/icons';
import { cartPage, changeCart } from '~/flows/purchase.server';
import { refuseOtherMethods } from '~/lib/form.server';
import { keepDataAfter } from '~/lib/revalidation';
import { seoMeta } from '~/lib/seo';

import type { Route } from './+types/cart';

export async function loader({ request, context }: Route.LoaderArgs) {
  const { page, headers, status } = await cartPage(context, request);
  return data(page, { headers, status });
}

export const shouldRevalidate = keepDataAfter('/preferences');

export async function action({ request, context }: Route.ActionArgs) {
  return refuseOtherMethods(request) ?? changeCart(context, request);
}

/** A 429's Retry-After reaches the browser too (only Set-Cookie passes on its own). */
export function headers({ actionHeaders, loaderHeaders, parentHeaders }: Route.HeadersArgs) {
  const retryAfter = actionHeaders.get('Retry-After') ?? loaderHeaders.get('Retry-After');
  if (retryAfter) parentHeaders.set('Retry-After', retryAfter);
  return parentHeaders;
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
  // A coupon refused without JavaScript is said at its field, like the fetcher's refusal.
  const refused = actionData && 'fieldErrors' in actionData ? actionData : undefined;
  const couponError = refused?.fieldErrors.couponCode;
  const couponRefusal = couponError
    ? { error: couponError, typed: refused?.values.couponCode }
    : undefined;
  const submitted =
    actionData && 'toast' in actionData && !couponError ? actionData.toast.message : undefined;
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
                key={line.variantId}
                line={line}
                onRemove={(name) => setRemoved(`“${name}” foi removido do seu carrinho.`)}
              />
            ))}
          </ul>
          <CartSummary
            lines={lines}
            estimate={loaderData.estimate}
            coupon={loaderData.coupon}
            couponRefusal={couponRefusal}
          />
        </div>
      )}
    </div>
  );
}
