import { eq } from 'drizzle-orm';
import { hasError, parsePix } from 'pix-utils';
import { expect, it } from 'vitest';

import { sandboxPayments } from '~/db/schema';
import type { PaymentRequest } from '~/modules/payments';
import { createSandboxProvider, setSandboxPaymentStatus } from '~/modules/payments/index.server';
import { defaultSettings } from '~/modules/settings';

import { describeDb } from '../support/db';

const ORDER_ID = '5a3b1e00-0000-4000-8000-00000000a001';
const T0 = new Date('2025-03-10T12:00:00Z');
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);

const settings = async () => defaultSettings();

const request = (overrides: Partial<PaymentRequest> = {}): PaymentRequest => ({
  orderId: ORDER_ID,
  attempt: 'first',
  description: 'Pedido #1042',
  deadline: null,
  amountCents: 35970,
  method: 'pix',
  customer: {
    name: 'Maria Silva',
    email: 'maria@example.com',
    cpf: '52998224725',
    phone: '11987654321',
  },
  items: [{ productId: null, title: 'Fone de Ouvido', unitPriceCents: 35970, quantity: 1 }],
  utmQuery: '',
  ...overrides,
});

describeDb('sandbox payments', ({ db }) => {
  let clock = T0;
  const sandbox = () => createSandboxProvider({ db: db(), settings, now: () => clock });

  async function created(): Promise<string> {
    clock = T0;
    const outcome = await sandbox().create(request());
    if (!outcome.ok) throw new Error(outcome.error);
    return outcome.value.paymentId;
  }

  it('creates a pending payment with a payable-looking BR Code, kept in its book', async () => {
    clock = T0;
    const outcome = await sandbox().create(request());
    expect(outcome).toEqual({
      ok: true,
      value: {
        paymentId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        status: 'pending',
        pixCode: expect.any(String),
        pixQrCode: null,
        billetUrl: null,
        billetCode: null,
        paymentUrl: null,
        expiresAt: minutes(30),
      },
    });
    if (!outcome.ok) return;

    const parsed = parsePix(outcome.value.pixCode!);
    expect(hasError(parsed)).toBe(false);
    expect(parsed).toMatchObject({
      transactionAmount: 359.7,
      merchantName: 'Vitrine Sandbox',
      merchantCity: 'Sao Paulo',
      // Each payment's own txid, so a new PIX for the same order is a new code.
      txid: outcome.value.paymentId.replaceAll('-', '').slice(0, 25),
    });

    const [row] = await db()
      .select()
      .from(sandboxPayments)
      .where(eq(sandboxPayments.id, outcome.value.paymentId));
    expect(row).toMatchObject({
      orderId: ORDER_ID,
      amountCents: 35970,
      status: 'pending',
      pixCode: outcome.value.pixCode,
      expiresAt: minutes(30),
    });
    await expect(sandbox().status(outcome.value.paymentId)).resolves.toEqual({
      ok: true,
      value: {
        status: 'pending',
        paymentId: outcome.value.paymentId,
        orderId: null,
        details: null,
      },
    });
  });

  it('is the test-mode "sandbox" provider, with its own expiry', async () => {
    expect(sandbox()).toMatchObject({ name: 'sandbox', testMode: true });
    const quick = createSandboxProvider({ db: db(), settings, expiryMinutes: 5, now: () => T0 });
    const outcome = await quick.create(request());
    expect(outcome.ok && outcome.value.expiresAt).toEqual(minutes(5));
  });

  it('approves a pending payment once', async () => {
    const id = await created();
    await expect(setSandboxPaymentStatus(db(), id, 'approved', minutes(1))).resolves.toBe(true);
    await expect(sandbox().status(id)).resolves.toMatchObject({
      ok: true,
      value: { status: 'approved' },
    });

    await expect(setSandboxPaymentStatus(db(), id, 'approved', minutes(2))).resolves.toBe(false);
    await expect(setSandboxPaymentStatus(db(), id, 'rejected', minutes(2))).resolves.toBe(false);
    await expect(sandbox().status(id)).resolves.toMatchObject({
      ok: true,
      value: { status: 'approved' },
    });
  });

  it('rejects a pending payment', async () => {
    const id = await created();
    await expect(setSandboxPaymentStatus(db(), id, 'rejected', minutes(1))).resolves.toBe(true);
    await expect(sandbox().status(id)).resolves.toMatchObject({
      ok: true,
      value: { status: 'rejected' },
    });
    await expect(setSandboxPaymentStatus(db(), id, 'approved', minutes(1))).resolves.toBe(false);
  });

  it('reads a pending payment past its time as expired, and no longer settles it', async () => {
    const id = await created();
    clock = minutes(29);
    await expect(sandbox().status(id)).resolves.toMatchObject({
      ok: true,
      value: { status: 'pending' },
    });
    clock = minutes(30);
    await expect(sandbox().status(id)).resolves.toMatchObject({
      ok: true,
      value: { status: 'expired' },
    });

    await expect(setSandboxPaymentStatus(db(), id, 'approved', minutes(31))).resolves.toBe(false);
    await expect(setSandboxPaymentStatus(db(), id, 'rejected', minutes(31))).resolves.toBe(false);
    await expect(sandbox().status(id)).resolves.toMatchObject({
      ok: true,
      value: { status: 'expired' },
    });
  });

  it('expires a pending payment at once when the tester asks', async () => {
    const id = await created();
    await expect(setSandboxPaymentStatus(db(), id, 'expired', minutes(1))).resolves.toBe(true);
    clock = minutes(1);
    await expect(sandbox().status(id)).resolves.toMatchObject({
      ok: true,
      value: { status: 'expired' },
    });
    await expect(setSandboxPaymentStatus(db(), id, 'approved', minutes(1))).resolves.toBe(false);
  });

  it('does not find unknown or malformed ids, without asking the database about them', async () => {
    const notFound = { ok: false, error: 'Pagamento não encontrado' };
    await expect(sandbox().status('5a3b1e00-0000-4000-8000-0000000000ff')).resolves.toEqual(
      notFound,
    );
    for (const id of ['', 'nope', "x'; drop table sandbox_payments; --", `pix-${ORDER_ID}`]) {
      await expect(sandbox().status(id)).resolves.toEqual(notFound);
      await expect(setSandboxPaymentStatus(db(), id, 'approved')).resolves.toBe(false);
    }
  });

  it('takes a card without asking for one, and its approval with the instalments chosen', async () => {
    clock = T0;
    const outcome = await sandbox().create(request({ method: 'credit_card' }));
    expect(outcome).toEqual({
      ok: true,
      value: {
        paymentId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        status: 'pending',
        pixCode: null,
        pixQrCode: null,
        billetUrl: null,
        billetCode: null,
        paymentUrl: null,
        expiresAt: minutes(30),
      },
    });
    if (!outcome.ok) return;
    const id = outcome.value.paymentId;
    const details = {
      method: 'credit_card',
      brand: null,
      installments: null,
      installmentCents: null,
      paidCents: null,
      feeCents: null,
      netCents: null,
      refundedCents: 0,
      releaseStatus: null,
      releaseDate: null,
      panelUrl: null,
    };
    await expect(sandbox().status(id)).resolves.toEqual({
      ok: true,
      value: { status: 'pending', paymentId: id, orderId: null, details },
    });

    await expect(setSandboxPaymentStatus(db(), id, 'approved', minutes(1), 3)).resolves.toBe(true);
    // R$ 359,70 in 3: the admin shows what the shopper chose, as a gateway would tell it.
    await expect(sandbox().status(id)).resolves.toEqual({
      ok: true,
      value: {
        status: 'approved',
        paymentId: id,
        orderId: null,
        details: { ...details, installments: 3, installmentCents: 11990, paidCents: 35970 },
      },
    });
  });

  it('takes instalments for a card only', async () => {
    const id = await created();
    await expect(setSandboxPaymentStatus(db(), id, 'approved', minutes(1), 2)).resolves.toBe(false);
    await expect(sandbox().status(id)).resolves.toEqual({
      ok: true,
      value: { status: 'pending', paymentId: id, orderId: null, details: null },
    });
  });

  it("holds a boleto until its due day and the banks' clearing, issuing none", async () => {
    // Monday 10 March 2025: due on Thursday (3 business days), kept two more for the clearing.
    clock = T0;
    const outcome = await sandbox().create(request({ method: 'boleto' }));
    expect(outcome).toMatchObject({
      ok: true,
      value: {
        pixCode: null,
        billetUrl: null,
        billetCode: null,
        paymentUrl: null,
        expiresAt: new Date('2025-03-17T23:59:59-03:00'),
      },
    });
    if (!outcome.ok) return;
    clock = new Date('2025-03-17T23:59:00-03:00');
    await expect(sandbox().status(outcome.value.paymentId)).resolves.toMatchObject({
      ok: true,
      value: { status: 'pending', details: { method: 'boleto', installments: null } },
    });
    clock = new Date('2025-03-18T00:00:00-03:00');
    await expect(sandbox().status(outcome.value.paymentId)).resolves.toMatchObject({
      ok: true,
      value: { status: 'expired' },
    });
  });

  it('refuses an invalid request without writing anything', async () => {
    await expect(sandbox().create(request({ amountCents: 500 }))).resolves.toEqual({
      ok: false,
      error: 'Valor mínimo para pagamento é R$ 5,01',
    });
    await expect(sandbox().create(request({ orderId: 'not-a-uuid' }))).resolves.toEqual({
      ok: false,
      error: 'Erro ao processar pagamento',
    });
    await expect(db().select().from(sandboxPayments)).resolves.toEqual([]);
  });
});
