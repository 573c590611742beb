import type { ChangeFeed } from '~/db/changes.server';
import type { Db } from '~/db/database.server';
import { isUniqueViolation } from '~/db/errors.server';
import { ordersPlaced } from '~/lib/metrics.server';
import { formatCents } from '~/lib/money';
import type { CartLine, PricedCart } from '~/modules/cart';
import { priceCart } from '~/modules/cart/index.server';
import { stockClaimParts } from '~/modules/catalog/index.server';
import { CHECKOUT_MESSAGES, type CheckoutForm } from '~/modules/checkout';
import { COUPON_MESSAGES } from '~/modules/coupons';
import {
  couponUsePart,
  findUsableCoupon,
  type ShopperCoupon,
} from '~/modules/coupons/index.server';
import type { OrderView, TrackingParameters } from '~/modules/orders';
import {
  findOrderByIdempotencyKey,
  insertOrder,
  type InsertedOrder,
  type OrderEventOptions,
} from '~/modules/orders/index.server';
import { MIN_PAYMENT_CENTS } from '~/modules/payments';
import { markCheckoutsConverted } from '~/modules/recovery/index.server';
import type { StoreSettings } from '~/modules/settings';
import type { ShippingQuote } from '~/modules/shipping';

import { carrierChoice, orderShipping } from './shipping-quote.server';

export interface PlaceOrderInput {
  form: CheckoutForm;
  cart: readonly CartLine[];
  orderToken: string;
  /** The request's client address (context.clientIp): one of the keys of the unpaid-order limit. */
  clientAddress: string;
  trackingParameters: TrackingParameters;
  /** The coupon the shopper applied (the one the checkout priced with), or null. */
  couponCode?: string | null;
  settings: StoreSettings;
  /**
   * Shipping as quoted for this order's CEP (before the transaction: the order never waits on a
   * carrier in it), the option chosen and the price the shopper was shown for it. Absent: the
   * store's own rule.
   */
  shipping?: {
    quote: ShippingQuote;
    chosen: { id: string; shownCents: number } | null;
    provider: string | null;
  };
  /** The database's change feed: the coupon's terms may then come from this instance's cache. */
  changes?: Pick<ChangeFeed, 'only'>;
  /** The checkout this browser saved for recovery (its cookie), converted with the order. */
  recoveryCheckoutId?: string | null;
}

export type PlaceOrderResult =
  /** `order` when this call created it (as written, for the payment that follows). */
  | { ok: true; orderId: string; created: boolean; order?: OrderView }
  /** The cart changed since the shopper saw it: back to the corrected cart, saying what changed. */
  | { ok: false; reason: 'cart_changed'; notices: string[]; corrected: CartLine[] }
  | { ok: false; reason: 'refused'; error: string }
  /** The coupon cannot be used (any more, or by this shopper): said at the coupon's field. */
  | { ok: false; reason: 'coupon'; error: string }
  /** The chosen carrier option costs something else now than the page showed. */
  | { ok: false; reason: 'shipping_changed'; error: string }
  /**
   * Too many unpaid orders for this browser, CPF or client address (`max_pending_orders`).
   * `openOrderId`: this browser's newest unpaid order, to pay it; never another browser's.
   */
  | { ok: false; reason: 'too_many_pending'; error: string; openOrderId: string | null };

export const PLACE_ORDER_MESSAGES = {
  empty: 'Seu carrinho está vazio.',
  reused: 'Este formulário já foi usado. Recarregue a página e tente de novo.',
  soldOutMeanwhile:
    'Um produto do seu carrinho acabou de esgotar ou mudou de preço. Confira seu carrinho.',
  paymentMinimum: 'Valor mínimo para pagamento é R$ 5,01',
  orderMinimum: (cents: number) => `O valor mínimo do pedido é ${formatCents(cents)}.`,
  tooManyPending:
    'Você já tem pedidos aguardando pagamento. Pague um deles ou aguarde o prazo do PIX ' +
    'para fazer um novo pedido.',
  // Not this browser's orders: it is not told which, nor shown them.
  tooManyPendingElsewhere:
    'Já existem pedidos aguardando pagamento com este CPF ou feitos desta rede. Pague um deles ' +
    'pelo link “Pagar agora” do e-mail que enviamos com o pedido (ou em Meus pedidos, no ' +
    'navegador em que ele foi feito), ou aguarde o prazo do PIX para fazer um novo pedido.',
  /** The first line of the order's timeline. */
  placedEvent: 'Pedido realizado na loja.',
};

const STORE_RULE: NonNullable<PlaceOrderInput['shipping']> = {
  quote: { kind: 'rule', approximate: false },
  chosen: null,
  provider: null,
};

/**
 * Turns the cart into a pending order: prices every line again from the database and refuses a
 * cart that changed, then in one statement checks the limit of unpaid orders and the coupon's
 * rules per shopper, reserves the stock at the prices it copies and takes the coupon's use, and
 * writes the order with copies of its products and the outbox rows for the e-mail and sales
 * tracking.
 * The same idempotency key twice gives the first order back. Creating the payment is the caller's
 * next step, outside.
 */
export async function placeOrder(
  db: Db,
  input: PlaceOrderInput,
  events: OrderEventOptions,
): Promise<PlaceOrderResult> {
  // A submission seen before (a resend after the cart was emptied, a double click) is found by
  // its key when this one cannot go through; the usual first submission pays no look-up.
  if (input.cart.length === 0) {
    return (
      (await sameSubmission(db, input)) ?? {
        ok: false,
        reason: 'refused',
        error: PLACE_ORDER_MESSAGES.empty,
      }
    );
  }
  // Priced before the order's statement: what could change meanwhile is checked again as the
  // order takes it (a stock's claim refuses a price or stock that moved, the coupon's a coupon
  // used up or closed).
  const priced = await priceOrder(db, input);
  if (!priced.ok) return (await sameSubmission(db, input)) ?? priced.refusal;
  const { cart, coupon } = priced;
  const { form } = input;
  const shipping = input.shipping ?? STORE_RULE;
  // Only a coupon the pricing applied takes a use (not one the PIX discount outdid).
  const couponUsed =
    coupon && cart.adjustments.some((adjustment) => adjustment.couponId === coupon.id)
      ? coupon
      : null;
  const now = new Date();
  const couponUse = couponUsed ? couponUsePart(couponUsed.id, now) : null;
  let placed: InsertedOrder;
  try {
    placed = await insertOrder(
      db,
      {
        idempotencyKey: form.idempotencyKey,
        orderToken: input.orderToken,
        clientAddress: input.clientAddress,
        customer: {
          name: form.customerName,
          email: form.customerEmail,
          phone: form.customerPhone,
          cpf: form.customerCpf,
        },
        address: {
          zipCode: form.zipCode,
          street: form.street,
          number: form.number,
          complement: form.complement || null,
          neighborhood: form.neighborhood,
          city: form.city,
          state: form.state,
        },
        paymentMethod: form.paymentMethod,
        lines: cart.lines.map((line) => ({
          productId: line.productId,
          variantId: line.variantId,
          sku: line.sku,
          options: line.options,
          name: line.name,
          unitPriceCents: line.unitPriceCents,
          quantity: line.quantity,
          totalCents: line.lineTotalCents,
          imageUrl: line.imageUrl,
        })),
        subtotalCents: cart.subtotalCents,
        shippingCents: cart.shippingCents,
        shipping: orderShipping(shipping.quote, cart.shippingOptionId, shipping.provider),
        adjustments: cart.adjustments,
        totalCents: cart.totalCents,
        trackingParameters: input.trackingParameters,
        expiresAt: new Date(now.getTime() + input.settings.pix_expiration_minutes * 60_000),
        placedNote: PLACE_ORDER_MESSAGES.placedEvent,
      },
      events,
      {
        placement: {
          maxPending: input.settings.max_pending_orders,
          coupon: couponUsed && {
            id: couponUsed.id,
            firstPurchaseOnly: couponUsed.firstPurchaseOnly,
            usageLimitPerCustomer: couponUsed.usageLimitPerCustomer,
          },
        },
        // The stock last but the coupon: the rows every order of a best seller or a campaign's
        // coupon updates stay locked only until the statement ends (on a sale day the shoppers
        // queue on them); conditional updates, so parallel checkouts never sell more than the
        // stock nor pass the coupon's limit.
        claims: [
          ...stockClaimParts(
            cart.lines.map((line) => ({
              productId: line.productId,
              variantId: line.variantId,
              quantity: line.quantity,
              priceCents: line.unitPriceCents,
            })),
          ),
          ...(couponUse ? [couponUse] : []),
        ],
        // An order is never followed by its cart's recovery e-mail: closed with it.
        alongside: (orderId) =>
          markCheckoutsConverted({
            checkoutId: input.recoveryCheckoutId ?? null,
            email: form.customerEmail,
            orderId,
            totalCents: cart.totalCents,
            now,
          }),
      },
    );
  } catch (error) {
    // Two copies of one submission raced: the other one's order is the answer.
    if (isUniqueViolation(error)) {
      const winner = await sameSubmission(db, input);
      if (winner) return winner;
    }
    throw error;
  }
  if (placed.ok) {
    ordersPlaced.inc();
    return { ok: true, orderId: placed.order.id, created: true, order: placed.order };
  }
  // A double click: the first copy may have taken the last units this copy was refused.
  const same = await sameSubmission(db, input);
  if (same) return same;
  const { refusal } = placed;
  switch (refusal.reason) {
    case 'too_many_pending':
      return {
        ok: false,
        reason: 'too_many_pending',
        error: refusal.browser
          ? PLACE_ORDER_MESSAGES.tooManyPending
          : PLACE_ORDER_MESSAGES.tooManyPendingElsewhere,
        openOrderId: refusal.openOrderId,
      };
    case 'first_purchase':
      return {
        ok: false,
        reason: 'coupon',
        error: COUPON_MESSAGES.firstPurchase(couponUsed!.code),
      };
    case 'used_by_shopper':
      return {
        ok: false,
        reason: 'coupon',
        error: COUPON_MESSAGES.usedByShopper(couponUsed!.code),
      };
    case 'claim':
      return refusal.claim === couponUse
        ? couponRefused(db, couponUsed!.code)
        : stockTaken(db, input);
  }
}

type PricedOrder =
  | { ok: true; cart: PricedCart; coupon: ShopperCoupon | null }
  | { ok: false; refusal: Exclude<PlaceOrderResult, { ok: true }> };

/**
 * The cart priced again from the database for this order (its way to pay, coupon and shipping),
 * or why it cannot be placed as the shopper saw it.
 */
async function priceOrder(db: Db, input: PlaceOrderInput): Promise<PricedOrder> {
  let coupon: ShopperCoupon | null = null;
  if (input.couponCode) {
    const found = await findUsableCoupon(db, input.couponCode, {
      changes: input.changes?.only('coupons'),
    });
    if (!found.ok) return refused({ ok: false, reason: 'coupon', error: found.message });
    coupon = found.coupon;
  }
  // The PIX discount applies to PIX only; cards and boleto pay the price.
  const { quote, chosen } = input.shipping ?? STORE_RULE;
  const cart = await priceCart(db, input.cart, input.settings, {
    paymentMethod: input.form.paymentMethod === 'pix' ? 'pix' : null,
    coupon,
    shipping: carrierChoice(quote, chosen?.id ?? null),
  });
  // Only what the shopper must hear about stops the order; a name the cookie had no room for is
  // not a change.
  if (cart.notices.length > 0) {
    return refused({
      ok: false,
      reason: 'cart_changed',
      notices: cart.notices,
      corrected: cart.corrected,
    });
  }
  if (chosen && cart.shippingCents !== chosen.shownCents) {
    return refused({
      ok: false,
      reason: 'shipping_changed',
      error: CHECKOUT_MESSAGES.shippingPriceChanged,
    });
  }
  const minimum = input.settings.min_order_value_cents;
  if (cart.subtotalCents < minimum) {
    return refused({
      ok: false,
      reason: 'refused',
      error: PLACE_ORDER_MESSAGES.orderMinimum(minimum),
    });
  }
  // The payment is for the total after the PIX discount: that is what must reach the minimum.
  if (cart.totalCents < MIN_PAYMENT_CENTS) {
    return refused({ ok: false, reason: 'refused', error: PLACE_ORDER_MESSAGES.paymentMinimum });
  }
  return { ok: true, cart, coupon };
}

const refused = (refusal: Exclude<PlaceOrderResult, { ok: true }>): PricedOrder => ({
  ok: false,
  refusal,
});

async function sameSubmission(db: Db, input: PlaceOrderInput): Promise<PlaceOrderResult | null> {
  const existing = await findOrderByIdempotencyKey(db, input.form.idempotencyKey);
  if (!existing) return null;
  // A key seen with another browser's token is not this shopper's order to show.
  if (existing.orderToken !== input.orderToken) {
    return { ok: false, reason: 'refused', error: PLACE_ORDER_MESSAGES.reused };
  }
  return { ok: true, orderId: existing.id, created: false };
}

/** Why the coupon could not be used, read again from the database (not from any cache). */
async function couponRefused(db: Db, code: string): Promise<PlaceOrderResult> {
  const found = await findUsableCoupon(db, code);
  return {
    ok: false,
    reason: 'coupon',
    error: found.ok ? COUPON_MESSAGES.usedUp(code) : found.message,
  };
}

/** Another checkout took the last units between pricing and reserving: show the cart as it is now. */
async function stockTaken(db: Db, input: PlaceOrderInput): Promise<PlaceOrderResult> {
  const cart = await priceCart(db, input.cart, input.settings, {
    paymentMethod: input.form.paymentMethod === 'pix' ? 'pix' : null,
    coupon: null,
  });
  return {
    ok: false,
    reason: 'cart_changed',
    notices: cart.notices.length > 0 ? cart.notices : [PLACE_ORDER_MESSAGES.soldOutMeanwhile],
    corrected: cart.corrected,
  };
}
