import { expect, it } from 'vitest';

import { orderAdjustments, orderItems } from '~/db/schema';
import { getOrder, recordPayment } from '~/modules/orders/index.server';

import { describeDb } from '../support/db';
import { insertOrderRow } from '../support/orders';

const pix = (expiresAt: Date | null) => ({
  provider: 'sandbox',
  paymentId: 'pagamento-1',
  status: 'pending',
  pixCode: '00020126580014br.gov.bcb.pix',
  pixQrCode: null,
  billetUrl: null,
  billetCode: null,
  paymentUrl: null,
  expiresAt,
});

describeDb('an order’s payment and reads', ({ db }) => {
  it('stores a payment on a pending order, each field and the deadline to the millisecond', async () => {
    const order = await insertOrderRow(db(), { cents: 29990 });
    const deadline = new Date('2031-03-17T23:59:58.123-03:00');
    expect(await recordPayment(db(), order.id, pix(deadline))).toBe(true);
    const stored = await getOrder(db(), order.id);
    expect(stored?.payment).toMatchObject({
      provider: 'sandbox',
      id: 'pagamento-1',
      status: 'pending',
      pixCode: '00020126580014br.gov.bcb.pix',
    });
    expect(stored?.payment.expiresAt?.toISOString()).toBe(deadline.toISOString());

    // Another order, the same statement: its own values, and a payment without a deadline.
    const other = await insertOrderRow(db(), { cents: 100 });
    expect(await recordPayment(db(), other.id, { ...pix(null), paymentId: 'pagamento-2' })).toBe(
      true,
    );
    expect((await getOrder(db(), other.id))?.payment.id).toBe('pagamento-2');
    expect((await getOrder(db(), other.id))?.payment.expiresAt).toBeNull();
    expect((await getOrder(db(), order.id))?.payment.id).toBe('pagamento-1');
  });

  it('leaves an order no longer pending as it is', async () => {
    const order = await insertOrderRow(db(), { cents: 29990, status: 'cancelled' });
    expect(await recordPayment(db(), order.id, pix(null))).toBe(false);
    expect((await getOrder(db(), order.id))?.payment.id).toBeNull();
  });

  it('reads each order with its own lines and adjustments', async () => {
    const [first, second] = [
      await insertOrderRow(db(), { cents: 5000 }),
      await insertOrderRow(db(), { cents: 7000 }),
    ];
    await db()
      .insert(orderItems)
      .values([
        {
          orderId: first.id,
          productName: 'Caneca',
          productPriceCents: 2500,
          quantity: 2,
          totalPriceCents: 5000,
        },
        {
          orderId: second.id,
          productName: 'Camiseta',
          productPriceCents: 7000,
          quantity: 1,
          totalPriceCents: 7000,
        },
      ]);
    await db().insert(orderAdjustments).values({
      orderId: second.id,
      position: 1,
      kind: 'pix',
      label: 'Desconto PIX',
      amountCents: -700,
    });
    const [a, b] = [await getOrder(db(), first.id), await getOrder(db(), second.id)];
    expect(a?.lines.map((line) => line.name)).toEqual(['Caneca']);
    expect(a?.adjustments).toEqual([]);
    expect(b?.lines.map((line) => line.name)).toEqual(['Camiseta']);
    expect(b?.adjustments.map((adjustment) => adjustment.label)).toEqual(['Desconto PIX']);
    expect(await getOrder(db(), crypto.randomUUID())).toBeNull();
    expect(await getOrder(db(), 'não-é-um-id')).toBeNull();
  });
});
