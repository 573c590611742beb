import { randomUUID } from 'node:crypto';

import { beforeEach, expect, it } from 'vitest';

import type { Db } from '~/db/database.server';
import { coupons, products } from '~/db/schema';
import { placeOrder } from '~/flows/place-order.server';
import { priceShopperCart } from '~/flows/shopper-cart.server';
import type { CartLine } from '~/modules/cart';
import { cartCookieHeader } from '~/modules/cart/index.server';
import { couponCookieHeader } from '~/modules/coupons/index.server';
import { getOrder } from '~/modules/orders/index.server';
import { priceOrder } from '~/modules/pricing';
import { defaultSettings, type StoreSettings } from '~/modules/settings';

import { describeDb } from '../support/db';
import { shopperCheckout } from '../support/visitor';
import { shopperAddress } from '../support/shoppers';

const FONE = '5a3b1e00-0000-4000-8000-00000000f001';
const CABO = '5a3b1e00-0000-4000-8000-00000000f002';
const cart: CartLine[] = [
  { productId: FONE, variantId: null, quantity: 1, seenPriceCents: 29990, seenName: 'Fone' },
  { productId: CABO, variantId: null, quantity: 3, seenPriceCents: 3990, seenName: 'Cabo USB-C' },
];

const SHIPPING: Record<string, Partial<StoreSettings>> = {
  free: { shipping_mode: 'free' },
  flat: {
    shipping_mode: 'flat_rate',
    default_shipping_cost_cents: 1990,
    free_shipping_threshold_cents: 0,
  },
  'flat, free from R$ 300': {
    shipping_mode: 'flat_rate',
    default_shipping_cost_cents: 1990,
    free_shipping_threshold_cents: 30000,
  },
};
const COUPONS = {
  none: null,
  percent: { code: 'QUINZE', kind: 'percent', value: 15 },
  fixed: { code: 'VINTE', kind: 'fixed', value: 2000 },
  free_shipping: { code: 'FRETEGRATIS', kind: 'free_shipping', value: 0 },
} as const;

/** The request a browser holding this cart and coupon sends. */
async function shopperRequest(code: string | null): Promise<Request> {
  const cookies = [await cartCookieHeader(cart)];
  if (code) cookies.push(await couponCookieHeader(code));
  const cookie = cookies.map((header) => header.split(';')[0]).join('; ');
  return new Request('http://loja.test/checkout', { headers: { Cookie: cookie } });
}

describeDb('the price of an order, on every screen', ({ db }) => {
  beforeEach(async () => {
    await db()
      .insert(products)
      .values([
        { id: FONE, name: 'Fone', priceCents: 29990, stockQuantity: 1000 },
        { id: CABO, name: 'Cabo USB-C', priceCents: 3990, stockQuantity: 1000 },
      ]);
    await db()
      .insert(coupons)
      .values(Object.values(COUPONS).flatMap((coupon) => (coupon ? [coupon] : [])));
  });

  it('is the same on the cart, at the checkout and in the stored order, for PIX discount × coupon × shipping', async () => {
    let checked = 0;
    const seen = new Set<string>();
    for (const pix of [0, 10]) {
      for (const stacks of [false, true]) {
        for (const [shippingName, shipping] of Object.entries(SHIPPING)) {
          for (const [kind, coupon] of Object.entries(COUPONS)) {
            const settings: StoreSettings = {
              ...defaultSettings(),
              ...shipping,
              pix_discount_percent: pix,
              coupon_stacks_with_pix: stacks,
              max_pending_orders: 50,
            };
            const where = `PIX ${pix}%, ${stacks ? 'stacking' : 'not stacking'}, ${shippingName}, coupon ${kind}`;
            seen.add(await agree(db(), settings, coupon?.code ?? null, where));
            checked++;
          }
        }
      }
    }
    expect(checked).toBe(2 * 2 * 3 * 4);
    // Every shape of adjustments occurred: none, each alone, both.
    expect([...seen].sort()).toEqual(['', 'coupon', 'coupon+pix', 'pix']);
  });
});

/** Checks one case; answers the kinds of adjustments the order got ('coupon+pix'). */
async function agree(
  db: Db,
  settings: StoreSettings,
  code: string | null,
  where: string,
): Promise<string> {
  const request = await shopperRequest(code);
  // The cart page: its loader prices with no payment method, the browser adds the PIX total
  // with the same pipeline (CartSummary).
  const cartPage = await priceShopperCart(
    { db, clientIp: shopperAddress() },
    request,
    settings,
    null,
  );
  const pixTotal = priceOrder(cartPage.cart.lines, settings, {
    paymentMethod: 'pix',
    coupon: cartPage.coupon?.terms ?? null,
  });
  // The checkout page.
  const checkout = await priceShopperCart(
    { db, clientIp: shopperAddress() },
    request,
    settings,
    'pix',
  );
  // The order placed from it.
  const placed = await placeOrder(
    db,
    {
      form: shopperCheckout(),
      cart,
      orderToken: randomUUID(),
      clientAddress: shopperAddress(),
      trackingParameters: {},
      couponCode: code,
      settings,
    },
    { tracking: false },
  );
  if (!placed.ok) throw new Error(`${where}: ${JSON.stringify(placed)}`);
  const order = await getOrder(db, placed.orderId);

  const money = (priced: { subtotalCents: number; shippingCents: number; totalCents: number }) => ({
    subtotal: priced.subtotalCents,
    shipping: priced.shippingCents,
    total: priced.totalCents,
  });
  const lines = (adjustments: readonly { kind: string; label: string; cents: number }[]) =>
    adjustments.map(({ kind, label, cents }) => ({ kind, label, cents }));
  expect(money(checkout.cart), where).toEqual(money(pixTotal));
  expect(money(order!), where).toEqual(money(checkout.cart));
  expect(lines(checkout.cart.adjustments), where).toEqual(lines(pixTotal.adjustments));
  expect(lines(order!.adjustments), where).toEqual(lines(checkout.cart.adjustments));
  // Each line's total too, as the checkout listed it.
  const byVariant = (rows: { variantId: string | null; cents: number }[]) =>
    rows.sort((a, b) => String(a.variantId).localeCompare(String(b.variantId)));
  expect(
    byVariant(order!.lines.map(({ variantId, totalCents }) => ({ variantId, cents: totalCents }))),
    where,
  ).toEqual(
    byVariant(
      checkout.cart.lines.map(({ variantId, lineTotalCents }) => ({
        variantId,
        cents: lineTotalCents,
      })),
    ),
  );
  // The stored total is its parts.
  expect(order!.totalCents, where).toBe(
    order!.subtotalCents +
      order!.shippingCents +
      order!.adjustments.reduce((sum, adjustment) => sum + adjustment.cents, 0),
  );
  return order!.adjustments.map((adjustment) => adjustment.kind).join('+');
}
