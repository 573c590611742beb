import { randomUUID } from 'node:crypto';

import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';

import { SANDBOX_MESSAGES } from '~/components/store/order-payment';
import type { Db } from '~/db/database.server';
import { products, productVariants } from '~/db/schema';
import { payOrder } from '~/flows/order-payment.server';
import { placeOrder } from '~/flows/place-order.server';
import type { PaymentMethod } from '~/modules/payments';
import { getOrder } from '~/modules/orders/index.server';
import { createSandboxProvider } from '~/modules/payments/index.server';
import { defaultSettings, type StoreSettings } from '~/modules/settings';
import { action } from '~/routes/store/sandbox-payment';

import { describeDb } from '../support/db';
import { shopperAddress } from '../support/shoppers';
import { shopperCheckout } from '../support/visitor';

/** R$ 299,90: at most 6 instalments of at least R$ 5,00 when the store allows 6. */
const PRICE_CENTS = 29990;

describeDb("the sandbox tester's buttons on a card or boleto order", ({ db }) => {
  /** A demo's order paid with the sandbox, as checkout leaves it: pending, its payment made. */
  async function pendingOrder(database: Db, method: PaymentMethod, settings: StoreSettings) {
    const productId = randomUUID();
    await database
      .insert(products)
      .values({ id: productId, name: 'Caneca', priceCents: PRICE_CENTS, stockQuantity: 5 });
    const [variant] = await database.select({ id: productVariants.id }).from(productVariants);
    const placed = await placeOrder(
      database,
      {
        form: shopperCheckout({ paymentMethod: method }),
        cart: [
          {
            productId,
            variantId: variant!.id,
            quantity: 1,
            seenPriceCents: PRICE_CENTS,
            seenName: 'Caneca',
          },
        ],
        orderToken: randomUUID(),
        clientAddress: shopperAddress(),
        trackingParameters: {},
        settings,
      },
      { tracking: false },
    );
    if (!placed.ok) throw new Error(JSON.stringify(placed));
    const sandbox = createSandboxProvider({ db: database, settings: async () => settings });
    const paid = await payOrder(database, sandbox, placed.orderId);
    if (!paid.ok) throw new Error(paid.error);
    const order = (await getOrder(database, placed.orderId))!;
    /** The order page's form, sent with the e-mail link's key (a browser without the cookie). */
    async function press(fields: Record<string, string>) {
      const request = new Request('http://loja.test/order-confirmation/sandbox', {
        method: 'POST',
        body: new URLSearchParams({ orderId: order.id, chave: order.accessKey, ...fields }),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
      const context = {
        db: database,
        payments: async () => sandbox,
        settings: { get: async () => settings },
        orderEvents: { tracking: false },
      };
      const answer = (await action({ request, context, params: {} } as unknown as Parameters<
        typeof action
      >[0])) as unknown;
      if (answer instanceof Response) {
        return { status: answer.status, location: answer.headers.get('Location') };
      }
      const refused = answer as { data: { toast: { message: string } }; init: { status: number } };
      return { status: refused.init.status, message: refused.data.toast.message };
    }
    return { order, press, productId };
  }

  const sixInstalments = { ...defaultSettings(), max_installments: 6 };

  it('approves a card with the instalments chosen, up to what the store offers on the total', async () => {
    const { order, press } = await pendingOrder(db(), 'credit_card', sixInstalments);
    expect(order.payment).toMatchObject({ provider: 'sandbox', pixCode: null, url: null });

    await expect(press({ intent: 'approve', parcelas: '7' })).resolves.toEqual({
      status: 400,
      message: 'Escolha de 1 a 6 parcelas.',
    });
    expect((await getOrder(db(), order.id))!.status).toBe('pending');

    const approved = await press({ intent: 'approve', parcelas: '6' });
    expect(approved).toMatchObject({ status: 303 });
    expect(approved.location).toMatch(/^\/order-confirmation\?orderId=/);
    const paid = (await getOrder(db(), order.id))!;
    expect(paid.status).toBe('confirmed');
    expect(paid.payment.details).toMatchObject({
      method: 'credit_card',
      installments: 6,
      installmentCents: 4998,
      paidCents: PRICE_CENTS,
    });
  });

  it('takes a card in one payment when the store offers no instalments', async () => {
    const { order, press } = await pendingOrder(db(), 'credit_card', defaultSettings());
    await expect(press({ intent: 'approve', parcelas: '2' })).resolves.toEqual({
      status: 400,
      message: SANDBOX_MESSAGES.installments(1),
    });
    expect(SANDBOX_MESSAGES.installments(1)).toBe('Este pedido é pago à vista.');
    await expect(press({ intent: 'approve' })).resolves.toMatchObject({ status: 303 });
    expect((await getOrder(db(), order.id))!.payment.details).toMatchObject({ installments: 1 });
  });

  it('settles a boleto: rejected, the order is cancelled and its stock comes back', async () => {
    const { order, press, productId } = await pendingOrder(db(), 'boleto', sixInstalments);
    // Instalments mean nothing to a boleto: ignored, never stored.
    await expect(press({ intent: 'reject', parcelas: '3' })).resolves.toMatchObject({
      status: 303,
    });
    const settled = (await getOrder(db(), order.id))!;
    expect(settled.status).toBe('cancelled');
    expect(settled.cancelReason).toBe('rejected');
    expect(settled.payment.details).toMatchObject({ method: 'boleto', installments: null });
    const [product] = await db()
      .select({ stock: products.stockQuantity })
      .from(products)
      .where(eq(products.id, productId));
    expect(product!.stock).toBe(5);
  });
});
