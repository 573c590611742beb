import { useState } from 'react';
import { data, Link, redirect } from 'react-router';

import { CartLineItem, useOptimisticLines } from '~/components/store/cart-line';
import { CartSummary } from '~/components/store/cart-summary';
import { seoContext, useSettings } from '~/components/store/store-data';
import { CartIcon } from '~/components/ui/icons';
import { pageShippingEstimate } from '~/flows/delivery-estimate.server';
import { cartGoods } from '~/flows/shipping-quote.server';
import { checkShopperCoupon, priceShopperCart } from '~/flows/shopper-cart.server';
import { parseFormData } from '~/lib/form';
import { readForm, refuseOtherMethods } from '~/lib/form.server';
import { keepDataAfter } from '~/lib/revalidation';
import { seoMeta } from '~/lib/seo';
import { refuseForm, successWithToast } from '~/lib/toast.server';
import { cartIntentSchema } from '~/modules/cart';
import { cartCookieHeader, readCart, updateCart } from '~/modules/cart/index.server';
import { COUPON_INTENTS, COUPON_MESSAGES, couponIntentSchema } from '~/modules/coupons';
import { couponCookieHeader } from '~/modules/coupons/index.server';

import type { Route } from './+types/cart';

export async function loader({ request, context }: Route.LoaderArgs) {
  const settings = await context.settings.get();
  // Priced without a payment method: the summary adds the PIX total beside it.
  const { cart, coupon, headers, retryAfterSeconds } = await priceShopperCart(
    context,
    request,
    settings,
    null,
  );
  const shipping = await pageShippingEstimate(context, request, cartGoods(cart), settings);
  for (const [name, value] of Object.entries(shipping.headers)) headers.append(name, value);
  // Too many coupon guesses: the cart shows, its coupon unchecked and saying how long to wait.
  if (retryAfterSeconds !== null) headers.set('Retry-After', String(retryAfterSeconds));
  return data(
    { ...cart, coupon, estimate: shipping.estimate },
    { headers, status: retryAfterSeconds === null ? 200 : 429 },
  );
}

export const shouldRevalidate = keepDataAfter('/preferences');

/** The one cart action: add, buy, set, remove or clear, chosen by the form's `intent`. */
export async function action({ request, context }: Route.ActionArgs) {
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  const read = await readForm(request);
  if (!read.ok) return refuseForm(read.error);
  const settings = await context.settings.get();
  if (COUPON_INTENTS.includes(String(read.form.get('intent')))) {
    return couponAction(request, context, read.form);
  }
  const parsed = parseFormData(read.form, cartIntentSchema);
  if (!parsed.ok) return refuseForm(parsed.error);
  const intent = parsed.data;

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

/**
 * 'Aplicar' and 'Remover cupom': the code is kept for the visit when a shopper may use it now;
 * what the cart's lines make of it (minimum, products) the summary says.
 */
async function couponAction(
  request: Request,
  context: Route.ActionArgs['context'],
  form: FormData,
) {
  const parsed = parseFormData(form, couponIntentSchema);
  if (!parsed.ok) return refuseForm(parsed.error, parsed);
  let code: string | null = null;
  if (parsed.data.intent === 'coupon') {
    const found = await checkShopperCoupon(context, parsed.data.couponCode);
    if (!found.ok) {
      const limited = 'retryAfterSeconds' in found;
      return refuseForm(
        found.message,
        {
          fieldErrors: { couponCode: found.message },
          values: { couponCode: parsed.data.couponCode },
        },
        limited ? 429 : 400,
        limited ? { 'Retry-After': String(found.retryAfterSeconds) } : {},
      );
    }
    code = found.coupon.code;
  }
  const headers = { 'Set-Cookie': await couponCookieHeader(code) };
  if (request.headers.get('Accept')?.includes('text/html')) {
    return redirect('/cart', { status: 303, headers });
  }
  const message = code ? COUPON_MESSAGES.applied(code) : COUPON_MESSAGES.removed;
  return successWithToast(request, message, {}, headers);
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
