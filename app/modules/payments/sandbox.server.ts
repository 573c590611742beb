import { randomUUID } from 'node:crypto';

import { and, eq, gt } from 'drizzle-orm';

import type { Db } from '~/db/database.server';
import { isUuid } from '~/lib/uuid';

import { BOLETO_CLEARING_DAYS, boletoDueDay } from './boleto.server';
import { buildPixCode, pixTxid } from './brcode';
import { paymentRequestError } from './request';
import { sandboxPayments } from './schema';
import {
  statusReport,
  type PaymentDetails,
  type PaymentMethod,
  type PaymentProvider,
  type PaymentRequest,
  type PaymentStatus,
} from './types';

// A random key (EVP) made up for the sandbox: its codes scan like real ones in a bank's app, but
// with no account behind the key the bank refuses the transfer.
const SANDBOX_PIX_KEY = '7c5bd4a2-1f36-4e8b-9d0a-3e6f2b8c1a47';

const NOT_FOUND = 'Pagamento não encontrado';

export interface SandboxSettings {
  /** Business days until a boleto falls due, as with Mercado Pago: the order holds its stock. */
  boleto_due_days: number;
}

export interface SandboxOptions {
  db: Db;
  settings: () => Promise<SandboxSettings>;
  expiryMinutes?: number;
  now?: () => Date;
}

/**
 * A stand-in gateway for a demo, development and tests: it keeps its payments in
 * `sandbox_payments`, and the tester settles them with `setSandboxPaymentStatus` instead of
 * paying. It takes what Mercado Pago takes, so a demo's checkout offers what a real store's will:
 * PIX with a code that scans but pays no one, and cards (the tester picks the instalments) and
 * boleto, neither asking for any card or issuing any boleto. A pending payment past its time
 * reads 'expired', as a real PIX would, without anything running to mark it.
 */
export function createSandboxProvider(options: SandboxOptions): PaymentProvider {
  const { db } = options;
  const expiryMinutes = options.expiryMinutes ?? 30;
  const now = options.now ?? (() => new Date());

  /** How long the payment can be paid: a boleto until its due day and the banks' clearing. */
  async function deadline(request: PaymentRequest): Promise<Date> {
    if (request.method !== 'boleto') return new Date(now().getTime() + expiryMinutes * 60_000);
    const { boleto_due_days } = await options.settings();
    const dueDay = boletoDueDay(request.deadline ?? now(), boleto_due_days);
    return boletoDueDay(dueDay, BOLETO_CLEARING_DAYS);
  }

  return {
    name: 'sandbox',
    testMode: true,
    accepts: ['pix', 'credit_card', 'boleto'],
    checkoutOrigins: [],

    async create(request) {
      const invalid = paymentRequestError(request);
      if (invalid) return { ok: false, error: invalid };
      if (!isUuid(request.orderId)) return { ok: false, error: 'Erro ao processar pagamento' };
      // Each payment its own txid, as a gateway's dynamic PIX: a new PIX is a new code.
      const paymentId = randomUUID();
      const pixCode =
        request.method === 'pix'
          ? buildPixCode({
              key: SANDBOX_PIX_KEY,
              merchantName: 'Vitrine Sandbox',
              merchantCity: 'Sao Paulo',
              amountCents: request.amountCents,
              txid: pixTxid(paymentId),
            })
          : null;
      // The amount passed its check above and every other input is fixed.
      if (request.method === 'pix' && pixCode === null) {
        return { ok: false, error: 'Erro ao processar pagamento' };
      }
      const expiresAt = await deadline(request);
      const [row] = await db
        .insert(sandboxPayments)
        .values({
          id: paymentId,
          orderId: request.orderId,
          amountCents: request.amountCents,
          method: request.method,
          pixCode,
          expiresAt,
        })
        .returning({ id: sandboxPayments.id });
      return {
        ok: true,
        value: {
          paymentId: row!.id,
          status: 'pending',
          pixCode,
          pixQrCode: null,
          billetUrl: null,
          billetCode: null,
          paymentUrl: null,
          expiresAt,
        },
      };
    },

    async status(paymentId) {
      if (!isUuid(paymentId)) return { ok: false, error: NOT_FOUND };
      const [row] = await db
        .select({
          status: sandboxPayments.status,
          expiresAt: sandboxPayments.expiresAt,
          method: sandboxPayments.method,
          amountCents: sandboxPayments.amountCents,
          installments: sandboxPayments.installments,
        })
        .from(sandboxPayments)
        .where(eq(sandboxPayments.id, paymentId));
      if (!row) return { ok: false, error: NOT_FOUND };
      const expired = row.status === 'pending' && row.expiresAt.getTime() <= now().getTime();
      const status = expired ? 'expired' : row.status;
      return {
        ok: true,
        value: { ...statusReport(paymentId, status), details: pretendDetails(row, status) },
      };
    },
  };
}

/** What the admin shows of a card or boleto payment, as a gateway would tell it; none for PIX. */
function pretendDetails(
  row: { method: PaymentMethod; amountCents: number; installments: number | null },
  status: PaymentStatus,
): PaymentDetails | null {
  if (row.method === 'pix') return null;
  const paid = status === 'approved';
  return {
    method: row.method,
    brand: null,
    installments: row.installments,
    installmentCents: row.installments ? Math.floor(row.amountCents / row.installments) : null,
    paidCents: paid ? row.amountCents : null,
    feeCents: null,
    netCents: null,
    refundedCents: 0,
    releaseStatus: null,
    releaseDate: null,
    panelUrl: null,
  };
}

export type SandboxOutcome = Extract<PaymentStatus, 'approved' | 'rejected' | 'expired'>;

/**
 * The tester's buttons: settles a pending payment; a card's approval with the instalments the
 * tester chose. Returns false when nothing changed (unknown id, already settled, instalments for
 * what is not a card, or already past its time for approval or rejection, which reads 'expired'
 * like the provider's status does).
 */
export async function setSandboxPaymentStatus(
  db: Db,
  paymentId: string,
  status: SandboxOutcome,
  now: Date = new Date(),
  installments: number | null = null,
): Promise<boolean> {
  if (!isUuid(paymentId)) return false;
  const pending = and(
    eq(sandboxPayments.id, paymentId),
    eq(sandboxPayments.status, 'pending'),
    installments === null ? undefined : eq(sandboxPayments.method, 'credit_card'),
  );
  const changed = await db
    .update(sandboxPayments)
    .set({ status, updatedAt: now, ...(installments === null ? {} : { installments }) })
    .where(status === 'expired' ? pending : and(pending, gt(sandboxPayments.expiresAt, now)))
    .returning({ id: sandboxPayments.id });
  return changed.length > 0;
}

/** Forgets every pretend payment (a demo store going live). */
export async function deleteSandboxPayments(db: Db): Promise<void> {
  await db.delete(sandboxPayments);
}
