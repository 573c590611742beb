import { randomUUID } from 'node:crypto';

import { and, eq, gt } from 'drizzle-orm';

import type { Db } from '~/db/database.server';
import { isUuid } from '~/lib/uuid';

import { buildPixCode, pixTxid } from './brcode';
import { paymentRequestError } from './request';
import { sandboxPayments } from './schema';
import { statusReport, type PaymentProvider, type PaymentStatus } from './types';

// A random key (EVP) made up for the sandbox: its codes scan like real ones in a bank's app, but
// with no account behind the key the bank refuses the transfer.
const SANDBOX_PIX_KEY = '7c5bd4a2-1f36-4e8b-9d0a-3e6f2b8c1a47';

const NOT_FOUND = 'Pagamento não encontrado';

export interface SandboxOptions {
  db: Db;
  expiryMinutes?: number;
  now?: () => Date;
}

/**
 * A stand-in gateway for development and tests: it keeps its payments in `sandbox_payments`, and
 * the tester settles them with `setSandboxPaymentStatus` instead of paying. A pending payment
 * past its time reads 'expired', as a real PIX would, without anything running to mark it.
 */
export function createSandboxProvider(options: SandboxOptions): PaymentProvider {
  const { db } = options;
  const expiryMinutes = options.expiryMinutes ?? 30;
  const now = options.now ?? (() => new Date());
  return {
    name: 'sandbox',
    testMode: true,
    accepts: ['pix'],
    checkoutOrigins: [],

    async create(request) {
      const invalid = paymentRequestError(request);
      if (invalid) return { ok: false, error: invalid };
      if (!isUuid(request.orderId)) return { ok: false, error: 'Erro ao processar pagamento' };
      // Each payment its own txid, as a gateway's dynamic PIX: a new PIX is a new code.
      const paymentId = randomUUID();
      const pixCode = buildPixCode({
        key: SANDBOX_PIX_KEY,
        merchantName: 'Vitrine Sandbox',
        merchantCity: 'Sao Paulo',
        amountCents: request.amountCents,
        txid: pixTxid(paymentId),
      });
      // The amount passed its check above and every other input is fixed.
      if (pixCode === null) return { ok: false, error: 'Erro ao processar pagamento' };
      const expiresAt = new Date(now().getTime() + expiryMinutes * 60_000);
      const [row] = await db
        .insert(sandboxPayments)
        .values({
          id: paymentId,
          orderId: request.orderId,
          amountCents: request.amountCents,
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
        .select({ status: sandboxPayments.status, expiresAt: sandboxPayments.expiresAt })
        .from(sandboxPayments)
        .where(eq(sandboxPayments.id, paymentId));
      if (!row) return { ok: false, error: NOT_FOUND };
      const expired = row.status === 'pending' && row.expiresAt.getTime() <= now().getTime();
      return { ok: true, value: statusReport(paymentId, expired ? 'expired' : row.status) };
    },
  };
}

export type SandboxOutcome = Extract<PaymentStatus, 'approved' | 'rejected' | 'expired'>;

/**
 * The tester's buttons: settles a pending payment. Returns false when nothing changed (unknown
 * id, already settled, or already past its time for approval or rejection, which reads
 * 'expired' like the provider's status does).
 */
export async function setSandboxPaymentStatus(
  db: Db,
  paymentId: string,
  status: SandboxOutcome,
  now: Date = new Date(),
): Promise<boolean> {
  if (!isUuid(paymentId)) return false;
  const pending = and(eq(sandboxPayments.id, paymentId), eq(sandboxPayments.status, 'pending'));
  const changed = await db
    .update(sandboxPayments)
    .set({ status, updatedAt: now })
    .where(status === 'expired' ? pending : and(pending, gt(sandboxPayments.expiresAt, now)))
    .returning({ id: sandboxPayments.id });
  return changed.length > 0;
}

/** Forgets every pretend payment (a demo store going live). */
export async function deleteSandboxPayments(db: Db): Promise<void> {
  await db.delete(sandboxPayments);
}
