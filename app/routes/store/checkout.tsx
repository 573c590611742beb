import { randomUUID } from 'node:crypto';

import { data, Link, redirect, useFetcher } from 'react-router';

import { useState } from 'react';

import {
  CHECKOUT_FORM_ID,
  CheckoutForm,
  type CheckoutShipping,
  type MethodOffer,
} from '~/components/store/checkout-form';
import { CouponBox } from '~/components/store/coupon-box';
import { NotSellingNotice } from '~/components/store/not-selling-notice';
import { OrderSummary } from '~/components/store/order-summary';
import { seoContext, useSettings } from '~/components/store/store-data';
import { TestModeNotice } from '~/components/store/test-mode-notice';
import { payOrder } from '~/flows/order-payment.server';
import { deliveryEstimate, estimateShipping } from '~/flows/delivery-estimate.server';
import { placeOrder } from '~/flows/place-order.server';
import { carriersOn, cartGoods, quoteShipping, shippingOffer } from '~/flows/shipping-quote.server';
import {
  checkShopperCoupon,
  priceShopperCart,
  type ShopperCouponCheck,
} from '~/flows/shopper-cart.server';
import { parseFormData } from '~/lib/form';
import { readForm, refuseOtherMethods } from '~/lib/form.server';
import { refuseForm, successWithToast } from '~/lib/toast.server';
import { seoMeta } from '~/lib/seo';
import { readSavedCep } from '~/modules/address/index.server';
import { cartCookieHeader, priceRequestCart, readCart } from '~/modules/cart/index.server';
import { CHECKOUT_MESSAGES, checkoutFormSchema, maskCep } from '~/modules/checkout';
import {
  COUPON_INTENTS,
  COUPON_MESSAGES,
  couponIntentSchema,
  couponMissText,
} from '~/modules/coupons';
import { couponCookieHeader, readCouponCookie } from '~/modules/coupons/index.server';
import {
  newOrderToken,
  orderTokenCookieHeader,
  readAttribution,
  readOrderToken,
} from '~/modules/orders/index.server';
import {
  offeredMethods,
  STORE_NOT_SELLING,
  type PaymentMethod,
  type PaymentProvider,
} from '~/modules/payments';
import { canTakePayments } from '~/modules/payments/index.server';
import type { ShippingEstimate } from '~/modules/orders';
import { installmentOffer, priceOrder } from '~/modules/pricing';
import { shippingLineLabel, type ShippingQuote } from '~/modules/shipping';
import { checkoutLimit, hitRateLimit } from '~/modules/rate-limits/index.server';

import type { Route } from './+types/checkout';

const RATE_LIMITED =
  'Muitas tentativas de compra em pouco tempo. Aguarde um minuto e tente de novo.';

export async function loader({ request, context }: Route.LoaderArgs) {
  const settings = await context.settings.get();
  // Priced for PIX, the first choice; the page prices the other ways to pay from the same lines.
  const { cart, coupon, headers, retryAfterSeconds } = await priceShopperCart(
    context,
    request,
    settings,
    'pix',
  );
  if (cart.lines.length === 0) throw redirect('/cart', { headers });
  // Too many coupon guesses: the page shows, its coupon unchecked and saying how long to wait.
  if (retryAfterSeconds !== null) headers.set('Retry-After', String(retryAfterSeconds));
  const payments = await context.payments();
  // The carriers' options for the CEP of the shopper's last estimate; a CEP typed here asks
  // /frete, and the form sent without JavaScript is answered with those of its CEP.
  const saved = readSavedCep(request);
  const estimate = saved
    ? (await estimateShipping(context, saved, cartGoods(cart), settings)).estimate
    : null;
  return data(
    {
      cart,
      coupon,
      // Whether carriers price shipping: the form then asks the shopper to choose.
      carriers: await carriersOn(context, settings),
      shipping: estimate?.ok ? estimate : null,
      // A fresh key per page view: submitting this form twice (double click, reload, resend)
      // finds the first order instead of placing another.
      idempotencyKey: randomUUID(),
      selling: canTakePayments(payments, settings),
      methods: checkoutMethods(payments, settings),
      testMode: payments?.testMode ?? false,
      // The CEP of the shopper's last shipping estimate starts the address.
      savedCep: maskCep(readSavedCep(request) ?? ''),
    },
    { headers, status: retryAfterSeconds === null ? 200 : 429 },
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
  const read = await readForm(request);
  if (!read.ok) return refuseForm(read.error);
  const settings = await context.settings.get();
  if (COUPON_INTENTS.includes(String(read.form.get('intent')))) {
    const parsed = parseFormData(read.form, couponIntentSchema);
    if (!parsed.ok) return refuseCoupon(parsed.error, read.form);
    const code = parsed.data.intent === 'coupon' ? parsed.data.couponCode : null;
    return applyCoupon(request, context, read.form, code, settings);
  }
  const parsed = parseFormData(read.form, checkoutFormSchema);
  if (!parsed.ok) return refuseForm(parsed.error, parsed);
  // A code typed (or cleared) but not applied yet: the shopper sees the new total first.
  const held = await readCouponCookie(request);
  if ((parsed.data.couponCode || null) !== held) {
    return applyCoupon(request, context, read.form, parsed.data.couponCode || null, settings);
  }
  // The cookie's code is the shopper's word: it counts as a check like one typed.
  if (held) {
    const check = await checkShopperCoupon(context, held);
    if (!check.ok) return refuseCheckedCoupon(check, read.form, 409);
  }
  const payments = await context.payments();
  if (!canTakePayments(payments, settings)) return refuseForm(STORE_NOT_SELLING, {}, 409);
  if (!checkoutMethods(payments, settings).includes(parsed.data.paymentMethod)) {
    return refuseForm(CHECKOUT_MESSAGES.paymentMethod, {
      fieldErrors: { paymentMethod: CHECKOUT_MESSAGES.paymentMethod },
      values: typedValues(read.form),
    });
  }

  // Quoted before the order's transaction, within the carrier's deadline: the order never waits
  // on a carrier longer than that. A store without carriers pays for none of it.
  const cart = await readCart(request);
  let quote: ShippingQuote = { kind: 'rule', approximate: false };
  // Refused, the form shows the options of the CEP it sent.
  let shippingShown: ShippingAnswer | null = null;
  if (await carriersOn(context, settings)) {
    const { cart: priced } = await priceRequestCart(context, request, settings, {
      paymentMethod: null,
      coupon: null,
    });
    quote = await quoteShipping(context, cartGoods(priced).items, parsed.data.zipCode, settings);
    const delivery = deliveryEstimate(parsed.data.zipCode, settings);
    if (delivery.ok) {
      const shipping = shippingOffer(quote, priced.subtotalCents, delivery.state, settings);
      shippingShown = { ...delivery, shipping };
    }
  }
  const refuseShipping = (message: string, status: number) =>
    refuseForm(
      message,
      {
        fieldErrors: { shippingOption: message },
        values: typedValues(read.form),
        shipping: shippingShown,
      },
      status,
    );
  const chosen = chosenShipping(parsed.data.shippingOption);
  if (quote.kind === 'carrier' && !quote.options.some((option) => option.id === chosen?.id)) {
    return refuseShipping(CHECKOUT_MESSAGES.shippingOption, 400);
  }

  const known = await readOrderToken(request);
  const orderToken = known ?? newOrderToken();
  const placed = await placeOrder(
    context.db,
    {
      form: parsed.data,
      cart,
      orderToken,
      clientAddress: context.clientIp,
      trackingParameters: await readAttribution(request),
      couponCode: held,
      settings,
      changes: context.changes,
      shipping: {
        quote,
        chosen: quote.kind === 'carrier' ? chosen : null,
        provider: (await context.shipping())?.provider ?? null,
      },
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
    if (placed.reason === 'coupon') return refuseCoupon(placed.error, read.form, 409);
    if (placed.reason === 'shipping_changed') return refuseShipping(placed.error, 409);
    return refuseForm(placed.error, {}, 409);
  }

  const headers = new Headers();
  headers.append('Set-Cookie', await cartCookieHeader([]));
  if (!known) headers.append('Set-Cookie', await orderTokenCookieHeader(orderToken));
  const payment = await payOrder(context.db, payments, placed.order ?? placed.orderId);
  // Cards and boleto are paid on the provider's page, which sends the shopper back.
  if (payment.ok && payment.paymentUrl)
    return redirect(payment.paymentUrl, { status: 303, headers });
  const query = new URLSearchParams({ orderId: placed.orderId });
  if (payment.ok) query.set('paymentId', payment.paymentId);
  return redirect(`/order-confirmation?${query}`, { status: 303, headers });
}

/**
 * 'Aplicar' (or a code typed and the form sent): keeps the code for the visit when a shopper may
 * use it now and answers the page priced with it, with what was typed, since a page posted
 * without JavaScript renders this answer with loaders that still read the old cookie.
 */
async function applyCoupon(
  request: Request,
  context: Route.ActionArgs['context'],
  form: FormData,
  code: string | null,
  settings: Awaited<ReturnType<Route.ActionArgs['context']['settings']['get']>>,
) {
  // The pricing checks the code itself: its refusal (unknown, expired, used up) is the answer.
  const priced = await priceShopperCart(context, request, settings, 'pix', code);
  if (priced.retryAfterSeconds !== null) {
    return refuseCoupon(priced.coupon!.refusal!, form, 429, {
      'Retry-After': String(priced.retryAfterSeconds),
    });
  }
  if (priced.coupon?.refusal) return refuseCoupon(priced.coupon.refusal, form);
  priced.headers.append('Set-Cookie', await couponCookieHeader(code));
  const message = code ? COUPON_MESSAGES.applied(code) : COUPON_MESSAGES.removed;
  return successWithToast(
    request,
    message,
    { cart: priced.cart, coupon: priced.coupon, values: typedValues(form) },
    priced.headers,
  );
}

/** A coupon refused at its field, keeping everything typed. */
function refuseCoupon(message: string, form: FormData, status = 400, headers?: HeadersInit) {
  return refuseForm(
    message,
    { fieldErrors: { couponCode: message }, values: typedValues(form) },
    status,
    headers,
  );
}

/** A check's refusal at the coupon's field: a 429 past the limit on guesses. */
function refuseCheckedCoupon(
  check: Exclude<ShopperCouponCheck, { ok: true }>,
  form: FormData,
  status: number,
) {
  return 'retryAfterSeconds' in check
    ? refuseCoupon(check.message, form, 429, { 'Retry-After': String(check.retryAfterSeconds) })
    : refuseCoupon(check.message, form, status);
}

/** The form's text fields as sent, to fill it again (a refused coupon's code with them). */
function typedValues(form: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of form) {
    if (typeof value === 'string') values[name] = value.slice(0, 500);
  }
  return values;
}

/** The `shippingOption` sent: the service and the price the page showed ('2:4590'). */
function chosenShipping(sent: string | undefined): { id: string; shownCents: number } | null {
  if (!sent) return null;
  const [id, cents] = sent.split(':');
  return { id: id!, shownCents: Number(cents) };
}

/** The ways to pay the store offers through its provider, PIX first. */
function checkoutMethods(
  payments: PaymentProvider | null,
  settings: Parameters<typeof offeredMethods>[1],
): PaymentMethod[] {
  return payments ? offeredMethods(payments.accepts, settings) : [];
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

export default function CheckoutPage({ loaderData, actionData }: Route.ComponentProps) {
  const settings = useSettings();
  const reply = actionData && 'toast' in actionData ? actionData : undefined;
  const refused = reply && !reply.ok ? reply : undefined;
  // A coupon applied in this request: the page as priced with it (see applyCoupon).
  const applied = reply && reply.ok && 'cart' in reply ? reply : undefined;
  const cart = applied?.cart ?? loaderData.cart;
  const coupon = applied ? applied.coupon : loaderData.coupon;
  const couponError = refused?.fieldErrors.couponCode;
  // A refusal that came before the fields were read (too many tries, no payment, a taken
  // order) has none to show again: the form starts over from the saved CEP.
  const sent = refused?.values ?? applied?.values;
  const values = sent && Object.keys(sent).length > 0 ? sent : { zipCode: loaderData.savedCep };
  const shipping = useCheckoutShipping(
    loaderData.carriers,
    // The refusal's options are those of the CEP it sent (the union of refusals types it loosely).
    (refused && 'shipping' in refused ? (refused.shipping as ShippingAnswer | null) : undefined) ??
      loaderData.shipping,
    values.shippingOption,
  );
  const carriers =
    shipping?.estimate?.shipping.kind === 'carrier' ? shipping.estimate.shipping : null;
  const chosenOption = carriers?.options.find((option) => option.id === shipping?.chosenId);
  const shippingLabel = shippingLineLabel({
    carrier: chosenOption?.carrier ?? null,
    service: chosenOption?.service ?? null,
    approximate:
      shipping?.estimate?.shipping.kind === 'rule' && shipping.estimate.shipping.approximate,
  });
  const choices = {
    coupon: coupon?.terms ?? null,
    shipping: carriers ? { offers: carriers.options, chosenId: shipping?.chosenId ?? null } : null,
  };
  const methods = methodOffers(loaderData.methods, cart.lines, choices, settings);
  const [chosen, setChosen] = useState<PaymentMethod | null>(null);
  const sentMethod = methods.find((offer) => offer.method === values.paymentMethod)?.method;
  const method = chosen ?? sentMethod ?? methods[0]?.method ?? 'pix';
  // The summary as the chosen way to pay and ship prices it: only PIX takes the PIX discount.
  const shown = priceOrder(cart.lines, settings, {
    ...choices,
    paymentMethod: method === 'pix' ? 'pix' : null,
  });
  const miss =
    coupon?.terms && shown.couponMiss ? couponMissText(coupon.code, shown.couponMiss) : null;
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
        {loaderData.selling ? (
          <CheckoutForm
            idempotencyKey={loaderData.idempotencyKey}
            values={values}
            errors={refused?.fieldErrors ?? {}}
            error={couponError ? undefined : refused?.toast.message}
            payNow={
              refused && 'payNow' in refused ? (refused.payNow as string | undefined) : undefined
            }
            submitLabel="Finalizar pedido"
            totalCents={shown.totalCents}
            methods={methods}
            method={method}
            onMethod={setChosen}
            shipping={shipping}
            testMode={loaderData.testMode}
          />
        ) : (
          <NotSellingNotice />
        )}
        <OrderSummary
          title="Resumo do pedido"
          lines={cart.lines.map((line) => ({
            productId: line.productId,
            variantId: line.variantId,
            name: line.name,
            options: line.options,
            imageUrl: line.imageUrl,
            quantity: line.quantity,
            totalCents: line.lineTotalCents,
          }))}
          subtotalCents={shown.subtotalCents}
          shippingCents={shown.shippingCents}
          shippingLabel={shippingLabel}
          adjustments={shown.adjustments}
          totalCents={shown.totalCents}
        >
          {loaderData.selling ? (
            <CouponBox
              coupon={coupon}
              miss={miss}
              error={couponError}
              typed={couponError ? refused?.values.couponCode : undefined}
              form={CHECKOUT_FORM_ID}
              inputId="checkout-couponCode"
            />
          ) : null}
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

/** Each way to pay with the order's total paid that way, from the pricing pipeline itself. */
function methodOffers(
  methods: readonly PaymentMethod[],
  lines: Parameters<typeof priceOrder>[0],
  choices: Omit<Parameters<typeof priceOrder>[2], 'paymentMethod'>,
  settings: Parameters<typeof priceOrder>[1] & Parameters<typeof installmentOffer>[1],
): MethodOffer[] {
  return methods.map((method) => {
    const { totalCents } = priceOrder(lines, settings, {
      ...choices,
      paymentMethod: method === 'pix' ? 'pix' : null,
    });
    const installments =
      method === 'credit_card' ? (installmentOffer(totalCents, settings)?.count ?? null) : null;
    return { method, totalCents, installments };
  });
}

type ShippingAnswer = Extract<ShippingEstimate, { ok: true }>;

/**
 * The checkout's shipping: the options for the CEP the page started with (or the refused form's),
 * then for each CEP typed (from /frete); the cheapest chosen until the shopper picks one.
 */
function useCheckoutShipping(
  carriers: boolean,
  initial: ShippingAnswer | null,
  sent: string | undefined,
): CheckoutShipping | null {
  const fetcher = useFetcher<ShippingEstimate>();
  const [picked, setPicked] = useState<string | null>(null);
  const estimate = fetcher.data ? (fetcher.data.ok ? fetcher.data : null) : initial;
  const options = estimate?.shipping.kind === 'carrier' ? estimate.shipping.options : [];
  const wanted = picked ?? sent?.split(':')[0];
  const chosenId = (options.find((option) => option.id === wanted) ?? options[0])?.id ?? null;
  if (!carriers) return null;
  return {
    estimate,
    loading: fetcher.state === 'loading',
    chosenId,
    onChoose: setPicked,
    onCep: (digits) => {
      if (digits !== estimate?.cep.replace('-', '')) void fetcher.load(`/frete?cep=${digits}`);
    },
  };
}
