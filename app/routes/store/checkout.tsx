import { randomUUID } from 'node:crypto';

import { data, Link, redirect } from 'react-router';

import { CheckoutForm } from '~/components/store/checkout-form';
import { OrderSummary } from '~/components/store/order-summary';
import { seoContext, useSettings } from '~/components/store/store-data';
import { TestModeNotice } from '~/components/store/test-mode-notice';
import { payOrder, paymentsReady } from '~/flows/order-payment.server';
import { placeOrder } from '~/flows/place-order.server';
import { parseForm, refuseOtherMethods } from '~/lib/form.server';
import { refuseForm } from '~/lib/toast.server';
import { seoMeta } from '~/lib/seo';
import { readSavedCep } from '~/modules/address/index.server';
import { cartCookieHeader, priceRequestCart, readCart } from '~/modules/cart/index.server';
import { checkoutFormSchema, maskCep } from '~/modules/checkout';
import {
  newOrderToken,
  orderTokenCookieHeader,
  readAttribution,
  readOrderToken,
} from '~/modules/orders/index.server';
import { PAYMENT_NOT_CONFIGURED } from '~/modules/payments';
import { checkoutLimit, hitRateLimit } from '~/modules/rate-limits/index.server';

import type { Route } from './+types/checkout';

const RATE_LIMITED =
  'Muitas tentativas de compra em pouco tempo. Aguarde um minuto e tente de novo.';

export async function loader({ request, context }: Route.LoaderArgs) {
  const settings = await context.settings.get();
  const { cart, headers } = await priceRequestCart(context, request, settings);
  if (cart.lines.length === 0) throw redirect('/cart');
  const payments = await context.payments();
  return data(
    {
      cart,
      // A fresh key per page view: submitting this form twice (double click, reload, resend)
      // finds the first order instead of placing another.
      idempotencyKey: randomUUID(),
      paymentsReady: paymentsReady(payments, settings),
      testMode: payments?.testMode ?? false,
      // The CEP of the shopper's last shipping estimate starts the address.
      savedCep: maskCep(readSavedCep(request) ?? ''),
    },
    { headers },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  const limited = await hitRateLimit(context.db, checkoutLimit(context.checkoutRateLimit), {
    address: context.clientIp,
  });
  if (!limited.allowed) {
    return refuseForm(RATE_LIMITED, {}, 429, {
      'Retry-After': String(limited.retryAfterSeconds),
    });
  }
  const parsed = await parseForm(request, checkoutFormSchema);
  if (!parsed.ok) return refuseForm(parsed.error, parsed);
  const settings = await context.settings.get();
  const payments = await context.payments();
  if (!paymentsReady(payments, settings)) {
    return refuseForm(PAYMENT_NOT_CONFIGURED, {}, 409);
  }

  const known = await readOrderToken(request);
  const orderToken = known ?? newOrderToken();
  const placed = await placeOrder(
    context.db,
    {
      form: parsed.data,
      cart: await readCart(request),
      orderToken,
      clientAddress: context.clientIp,
      trackingParameters: await readAttribution(request),
      settings,
    },
    context.orderEvents,
  );
  if (!placed.ok) {
    // The cart page says what changed (it compares the cart with the products again).
    if (placed.reason === 'cart_changed') return redirect('/cart', 303);
    // The cart is kept; this browser's own unpaid order is one click away.
    if (placed.reason === 'too_many_pending') {
      // The id of this browser's unpaid order, to pay before placing another.
      return refuseForm(placed.error, { payNow: placed.openOrderId ?? undefined }, 409);
    }
    return refuseForm(placed.error, {}, 409);
  }

  const headers = new Headers();
  headers.append('Set-Cookie', await cartCookieHeader([]));
  if (!known) headers.append('Set-Cookie', await orderTokenCookieHeader(orderToken));
  const payment = await payOrder(context.db, payments, placed.order ?? placed.orderId);
  const query = new URLSearchParams({ orderId: placed.orderId });
  if (payment.ok) query.set('paymentId', payment.paymentId);
  return redirect(`/order-confirmation?${query}`, { status: 303, headers });
}

/** The 429's Retry-After reaches the browser too (only Set-Cookie passes on its own). */
export function headers({ actionHeaders, loaderHeaders }: Route.HeadersArgs) {
  const retryAfter = actionHeaders.get('Retry-After');
  return retryAfter ? { 'Retry-After': retryAfter } : loaderHeaders;
}

export function meta({ matches }: Route.MetaArgs) {
  return seoMeta(seoContext(matches), {
    title: 'Finalizar compra',
    path: '/checkout',
    noindex: true,
  });
}

export default function CheckoutPage({ loaderData, actionData }: Route.ComponentProps) {
  const settings = useSettings();
  const { cart } = loaderData;
  const refused = actionData && 'toast' in actionData ? actionData : undefined;
  // A refusal that came before the fields were read (too many tries, no payment, a taken
  // order) has none to show again: the form starts over from the saved CEP.
  const values =
    refused && Object.keys(refused.values).length > 0
      ? refused.values
      : { zipCode: loaderData.savedCep };
  return (
    <div className="section-spacing mx-auto max-w-store px-4">
      <h1 className="mb-6 text-2xl sm:text-3xl">Finalizar compra</h1>
      {loaderData.testMode ? <TestModeNotice /> : null}
      {cart.notices.length > 0 ? (
        <ul
          role="status"
          className="mb-6 flex flex-col gap-1 rounded-card border-l-4 border-accent bg-card p-4"
        >
          {cart.notices.map((notice) => (
            <li key={notice}>{notice}</li>
          ))}
        </ul>
      ) : null}
      <div className="grid items-start gap-6 lg:grid-cols-[1fr_24rem]">
        {loaderData.paymentsReady ? (
          <CheckoutForm
            idempotencyKey={loaderData.idempotencyKey}
            values={values}
            errors={refused?.fieldErrors ?? {}}
            error={refused?.toast.message}
            payNow={
              refused && 'payNow' in refused ? (refused.payNow as string | undefined) : undefined
            }
            submitLabel="Finalizar pedido"
            totalCents={cart.totalCents}
          />
        ) : (
          <p
            role="alert"
            className="rounded-card border-l-4 border-danger bg-card p-4 font-semibold"
          >
            {PAYMENT_NOT_CONFIGURED}
          </p>
        )}
        <OrderSummary
          title="Resumo do pedido"
          lines={cart.lines.map((line) => ({
            productId: line.productId,
            name: line.name,
            imageUrl: line.imageUrl,
            quantity: line.quantity,
            totalCents: line.lineTotalCents,
          }))}
          subtotalCents={cart.subtotalCents}
          shippingCents={cart.shippingCents}
          discountCents={cart.discountCents}
          totalCents={cart.totalCents}
        >
          <Link to="/cart" className="btn btn-outline w-full">
            Voltar ao carrinho
          </Link>
          <Link to="/products" className="text-center text-sm text-link underline">
            {settings.continue_shopping_text}
          </Link>
        </OrderSummary>
      </div>
    </div>
  );
}
