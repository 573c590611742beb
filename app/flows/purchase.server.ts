import { randomUUID } from 'node:crypto';

import { redirect, type AppLoadContext } from 'react-router';

import { parseFormData } from '~/lib/form';
import { readForm } from '~/lib/form.server';
import { refuseForm, successWithToast } from '~/lib/toast.server';
import { readSavedCep } from '~/modules/address/index.server';
import { cartIntentSchema } from '~/modules/cart';
import {
  cartCookieHeader,
  priceRequestCart,
  readCart,
  updateCart,
} from '~/modules/cart/index.server';
import { CHECKOUT_MESSAGES, checkoutFormSchema, maskCep } from '~/modules/checkout';
import { COUPON_INTENTS, COUPON_MESSAGES, couponIntentSchema } from '~/modules/coupons';
import { readCouponCookie } from '~/modules/coupons/index.server';
import type { ShippingEstimate } from '~/modules/orders';
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
import { checkoutLimit, hitRateLimit } from '~/modules/rate-limits/index.server';
import { addressLine, SIGN_IN_PATH } from '~/modules/shoppers';
import { findSignedInShopper, listAddresses } from '~/modules/shoppers/index.server';
import {
  checkoutRecoveryCookieHeader,
  readCheckoutRecoveryCookie,
} from '~/modules/recovery/index.server';
import type { StoreSettings } from '~/modules/settings';
import type { ShippingQuote } from '~/modules/shipping';

import {
  deliveryEstimate,
  estimateShipping,
  pageShippingEstimate,
} from './delivery-estimate.server';
import { payOrder } from './order-payment.server';
import { placeOrder } from './place-order.server';
import { carriersOn, cartGoods, quoteShipping, shippingOffer } from './shipping-quote.server';
import {
  applyShopperCoupon,
  checkShopperCoupon,
  priceShopperCart,
  type ShopperCouponCheck,
} from './shopper-cart.server';

const RATE_LIMITED =
  'Muitas tentativas de compra em pouco tempo. Aguarde um minuto e tente de novo.';

type ShippingAnswer = Extract<ShippingEstimate, { ok: true }>;

/**
 * The cart page: priced without a payment method (the summary adds the PIX total beside it),
 * with the coupon held and the delivery estimate for the shopper's CEP.
 */
export async function cartPage(context: AppLoadContext, request: Request) {
  const settings = await context.settings.get();
  // Too many coupon guesses: the cart shows, its coupon unchecked and saying how long to wait.
  const { cart, coupon, headers, status } = await priceShopperCart(
    context,
    request,
    settings,
    null,
  );
  const shipping = await pageShippingEstimate(context, request, cartGoods(cart), settings);
  for (const [name, value] of Object.entries(shipping.headers)) headers.append(name, value);
  return { page: { ...cart, coupon, estimate: shipping.estimate }, headers, status };
}

/** The one cart action: add, buy, set, remove or clear, or a coupon, chosen by the form's `intent`. */
export async function changeCart(context: AppLoadContext, request: Request) {
  const read = await readForm(request);
  if (!read.ok) return refuseForm(read.error);
  const settings = await context.settings.get();
  // A plain form post (no JavaScript yet) would render with the loaders reading the request's
  // old cookie; send the browser to read the cart again instead. Fetchers never ask for HTML.
  const document = request.headers.get('Accept')?.includes('text/html');
  if (COUPON_INTENTS.includes(String(read.form.get('intent')))) {
    const parsed = parseFormData(read.form, couponIntentSchema);
    if (!parsed.ok) return refuseForm(parsed.error, parsed);
    const typed = parsed.data.intent === 'coupon' ? parsed.data.couponCode : null;
    const applied = await applyShopperCoupon(context, request, settings, typed);
    if (!applied.ok) {
      const values = { couponCode: typed ?? '' };
      const fieldErrors = { couponCode: applied.message };
      return refuseForm(applied.message, { fieldErrors, values }, applied.status, applied.headers);
    }
    if (document) return redirect('/cart', { status: 303, headers: applied.headers });
    const message = applied.code ? COUPON_MESSAGES.applied(applied.code) : COUPON_MESSAGES.removed;
    return successWithToast(request, message, {}, applied.headers);
  }
  const parsed = parseFormData(read.form, cartIntentSchema);
  if (!parsed.ok) return refuseForm(parsed.error);
  const intent = parsed.data;
  const update = await updateCart(context.db, await readCart(request), intent, settings);
  if (!update.ok) return refuseForm(update.error, {}, update.status);
  const headers = { 'Set-Cookie': await cartCookieHeader(update.lines) };
  if (intent.intent === 'buy') return redirect('/checkout', { headers });
  if (document) return redirect('/cart', { status: 303, headers });
  const { count, message, capped } = update;
  return successWithToast(request, message, { count, capped }, headers);
}

/**
 * The checkout page: the cart priced for PIX (the first choice; the page prices the other ways
 * to pay from the same lines) with the coupon held, the carriers' options for the CEP of the
 * shopper's last estimate, and the ways to pay. An empty cart goes back to /cart.
 */
export async function checkoutPage(context: AppLoadContext, request: Request) {
  const settings = await context.settings.get();
  // Too many coupon guesses: the page shows, its coupon unchecked and saying how long to wait.
  const { cart, coupon, headers, status } = await priceShopperCart(
    context,
    request,
    settings,
    'pix',
  );
  if (cart.lines.length === 0) throw redirect('/cart', { headers });
  const payments = await context.payments();
  // A CEP typed here asks /frete; the form sent without JavaScript is answered with the options
  // of its CEP.
  const account = await shopperAtCheckout(context, request);
  // A saved address chosen (or the default) starts the form; else the CEP of the shopper's last
  // shipping estimate.
  const saved = account?.chosen?.zipCode ?? readSavedCep(request);
  const estimate = saved
    ? (await estimateShipping(context, saved, cartGoods(cart), settings)).estimate
    : null;
  return {
    page: {
      cart,
      coupon,
      carriers: await carriersOn(context, settings),
      shipping: estimate?.ok ? estimate : null,
      // A fresh key per page view: submitting this form twice (double click, reload, resend)
      // finds the first order instead of placing another.
      idempotencyKey: randomUUID(),
      selling: canTakePayments(payments, settings),
      methods: checkoutMethods(payments, settings),
      testMode: payments?.testMode ?? false,
      // What starts the form: the signed-in shopper's e-mail and chosen address, else the CEP
      // of the shopper's last shipping estimate.
      prefill: (account?.chosen
        ? {
            customerEmail: account.email,
            zipCode: maskCep(account.chosen.zipCode),
            street: account.chosen.street,
            number: account.chosen.number,
            complement: account.chosen.complement,
            neighborhood: account.chosen.neighborhood,
            city: account.chosen.city,
            state: account.chosen.state,
          }
        : {
            ...(account ? { customerEmail: account.email } : {}),
            zipCode: maskCep(saved ?? ''),
          }) as Record<string, string>,
      signIn: `${SIGN_IN_PATH}?${new URLSearchParams({ voltar: '/checkout' })}`,
      account: account && {
        email: account.email,
        chosenId: account.chosen?.id ?? null,
        addresses: account.addresses.map((address) => ({
          id: address.id,
          line: addressLine(address),
        })),
      },
    },
    headers,
    status,
  };
}

/** The query name of the saved address the checkout starts with (its id). */
export const CHECKOUT_ADDRESS_PARAM = 'endereco';

/**
 * The signed-in shopper at the checkout, their saved addresses and the one chosen (`?endereco=`,
 * else the default); null for a guest, who is offered to sign in.
 */
async function shopperAtCheckout(context: AppLoadContext, request: Request) {
  const shopper = await findSignedInShopper(context.db, request, new Date());
  if (!shopper) return null;
  const addresses = await listAddresses(context.db, shopper.id);
  const wanted = new URL(request.url).searchParams.get(CHECKOUT_ADDRESS_PARAM);
  const chosen =
    addresses.find((address) => address.id === wanted) ??
    addresses.find((address) => address.isDefault) ??
    null;
  return { email: shopper.email, addresses, chosen };
}

/**
 * 'Finalizar pedido' (and the coupon's buttons, which share the form): the purchase from the
 * form to the payment. Limited per client address; a coupon typed but not applied yet is applied
 * first, so the shopper sees the new total; the shipping is quoted before the order's
 * transaction (within the carrier's deadline), the order placed (placeOrder), then paid: a PIX
 * to the confirmation page, cards and boleto to the provider's page.
 */
export async function submitCheckout(context: AppLoadContext, request: Request) {
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
    return answerCoupon(context, request, read.form, code, settings);
  }
  const parsed = parseFormData(read.form, checkoutFormSchema);
  if (!parsed.ok) return refuseForm(parsed.error, parsed);
  const held = await readCouponCookie(request);
  if ((parsed.data.couponCode || null) !== held) {
    return answerCoupon(context, request, read.form, parsed.data.couponCode || null, settings);
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

  // The order never waits on a carrier longer than its deadline; a store without carriers pays
  // for none of it.
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
      recoveryCheckoutId: await readCheckoutRecoveryCookie(request),
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
      return refuseForm(placed.error, { payNow: placed.openOrderId ?? undefined }, 409);
    }
    if (placed.reason === 'coupon') return refuseCoupon(placed.error, read.form, 409);
    if (placed.reason === 'shipping_changed') return refuseShipping(placed.error, 409);
    return refuseForm(placed.error, {}, 409);
  }

  const headers = new Headers();
  headers.append('Set-Cookie', await cartCookieHeader([]));
  headers.append('Set-Cookie', await checkoutRecoveryCookieHeader(null));
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
 * A coupon applied (or removed) from the checkout's form: answered with the page priced by it
 * and what was typed, since a page posted without JavaScript renders this answer with loaders
 * that still read the old cookie.
 */
async function answerCoupon(
  context: AppLoadContext,
  request: Request,
  form: FormData,
  code: string | null,
  settings: StoreSettings,
) {
  const applied = await applyShopperCoupon(context, request, settings, code);
  if (!applied.ok) return refuseCoupon(applied.message, form, applied.status, applied.headers);
  const message = applied.code ? COUPON_MESSAGES.applied(applied.code) : COUPON_MESSAGES.removed;
  return successWithToast(
    request,
    message,
    { cart: applied.cart, coupon: applied.coupon, values: typedValues(form) },
    applied.headers,
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
