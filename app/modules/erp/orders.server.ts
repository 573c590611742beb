import { and, count, desc, eq, sql } from 'drizzle-orm';

import type { Db } from '~/db/database.server';
import { enqueue } from '~/modules/jobs/index.server';

import { isConnected } from './connection.server';
import type { ErpName, ErpOrderView } from './erp';
import type { ErpInvoice } from './erp.server';
import { erpOrders } from './schema';

/** Outbox topics of the ERP work, run after the commit by the background worker. */
export const ERP_TOPICS = {
  sendOrder: 'erp.send_order',
  issueInvoice: 'erp.issue_invoice',
  resendInvoice: 'erp.resend_invoice',
  readInvoice: 'erp.read_invoice',
  invoiceEmail: 'email.invoice_authorized',
} as const;

export interface ErpJob {
  orderId: string;
  /** For a note's reads: how many came before this one. */
  reads?: number;
}

/**
 * When a note still at SEFAZ is read again: 30 s, then twice as long each time up to an hour;
 * null after 30 reads (about a day), when a notification or staff opening Bling must tell.
 */
export function nextInvoiceRead(reads: number, now: Date): Date | null {
  if (reads >= 30) return null;
  return new Date(now.getTime() + Math.min(30_000 * 2 ** reads, 60 * 60_000));
}

const VIEW = {
  provider: erpOrders.provider,
  sendState: erpOrders.sendState,
  erpOrderId: erpOrders.erpOrderId,
  sendError: erpOrders.sendError,
  invoiceRequested: erpOrders.invoiceRequested,
  invoiceState: erpOrders.invoiceState,
  invoiceId: erpOrders.invoiceId,
  invoiceNumber: erpOrders.invoiceNumber,
  invoiceKey: erpOrders.invoiceKey,
  danfeUrl: erpOrders.danfeUrl,
  invoiceReason: erpOrders.invoiceReason,
};

export async function getErpOrder(db: Db, orderId: string): Promise<ErpOrderView | null> {
  const [row] = await db.select(VIEW).from(erpOrders).where(eq(erpOrders.orderId, orderId));
  return row ?? null;
}

/** The order's ERP row, locked for the caller's transaction. */
export async function lockErpOrder(db: Db, orderId: string): Promise<ErpOrderView | null> {
  const [row] = await db
    .select(VIEW)
    .from(erpOrders)
    .where(eq(erpOrders.orderId, orderId))
    .for('update');
  return row ?? null;
}

export type SendRequest = 'queued' | 'already';

/**
 * Queues the order for the ERP, once: an order already queued or sent is left as it is (the
 * paid order's job and staff's 'Enviar ao Bling' make one sales order), one the ERP refused is
 * queued again.
 */
export async function requestErpSend(
  tx: Db,
  orderId: string,
  provider: ErpName,
  options: { invoice?: boolean } = {},
): Promise<SendRequest> {
  const inserted = await tx
    .insert(erpOrders)
    .values({
      orderId,
      provider,
      sendState: 'queued',
      invoiceRequested: options.invoice ?? false,
      invoiceState: options.invoice ? 'issuing' : null,
    })
    .onConflictDoNothing()
    .returning({ orderId: erpOrders.orderId });
  if (inserted.length === 0) {
    const again = await tx
      .update(erpOrders)
      .set({ sendState: 'queued', sendError: null, updatedAt: sql`now()` })
      .where(and(eq(erpOrders.orderId, orderId), eq(erpOrders.sendState, 'refused')))
      .returning({ orderId: erpOrders.orderId });
    if (again.length === 0) return 'already';
  }
  await enqueue(tx, ERP_TOPICS.sendOrder, { orderId } satisfies ErpJob);
  return 'queued';
}

/**
 * In the transaction that confirms an order's payment: queued for the ERP when one is connected
 * (the job reads the connection and invoice_on again when it runs).
 */
export async function queuePaidOrder(tx: Db, orderId: string): Promise<void> {
  if (await isConnected(tx, 'bling')) await requestErpSend(tx, orderId, 'bling');
}

export type InvoiceRequest = 'queued' | 'already' | 'busy' | 'rejected';

/**
 * Asks for the order's NF-e: issued at once when the order is at the ERP, else right after it
 * gets there. A note authorized, under way or rejected (see requestInvoiceRetry) is left alone.
 */
export async function requestErpInvoice(
  tx: Db,
  orderId: string,
  provider: ErpName,
): Promise<InvoiceRequest> {
  const row = await lockErpOrder(tx, orderId);
  if (!row) {
    await requestErpSend(tx, orderId, provider, { invoice: true });
    return 'queued';
  }
  if (row.invoiceState === 'authorized') return 'already';
  if (row.invoiceState === 'issuing' || row.invoiceState === 'pending') return 'busy';
  if (row.invoiceState === 'rejected') return 'rejected';
  await tx
    .update(erpOrders)
    .set({ invoiceRequested: true, invoiceState: 'issuing', updatedAt: sql`now()` })
    .where(eq(erpOrders.orderId, orderId));
  if (row.sendState === 'sent') {
    await enqueue(tx, ERP_TOPICS.issueInvoice, { orderId } satisfies ErpJob);
  } else if (row.sendState === 'refused') {
    await requestErpSend(tx, orderId, provider);
  }
  return 'queued';
}

/** 'Tentar de novo' on a rejected note, once staff fixed what SEFAZ refused. */
export async function requestInvoiceRetry(tx: Db, orderId: string): Promise<boolean> {
  const retried = await tx
    .update(erpOrders)
    .set({ invoiceState: 'issuing', updatedAt: sql`now()` })
    .where(and(eq(erpOrders.orderId, orderId), eq(erpOrders.invoiceState, 'rejected')))
    .returning({ orderId: erpOrders.orderId });
  if (retried.length === 0) return false;
  await enqueue(tx, ERP_TOPICS.resendInvoice, { orderId } satisfies ErpJob);
  return true;
}

export async function recordErpSent(tx: Db, orderId: string, erpOrderId: string): Promise<void> {
  await tx
    .update(erpOrders)
    .set({ sendState: 'sent', erpOrderId, sendError: null, updatedAt: sql`now()` })
    .where(eq(erpOrders.orderId, orderId));
}

export async function recordErpRefusal(tx: Db, orderId: string, reason: string): Promise<void> {
  await tx
    .update(erpOrders)
    .set({ sendState: 'refused', sendError: reason, updatedAt: sql`now()` })
    .where(eq(erpOrders.orderId, orderId));
}

/** The note as the ERP read it; a rejection without words keeps the reason read before. */
export async function recordInvoice(tx: Db, orderId: string, invoice: ErpInvoice): Promise<void> {
  await tx
    .update(erpOrders)
    .set({
      invoiceId: invoice.id || null,
      invoiceState: invoice.state,
      invoiceNumber: invoice.number,
      invoiceKey: invoice.key && /^\d{44}$/.test(invoice.key) ? invoice.key : null,
      danfeUrl: invoice.danfeUrl,
      invoiceReason:
        invoice.state === 'rejected'
          ? (invoice.reason ?? sql`coalesce(${erpOrders.invoiceReason}, 'veja o motivo no ERP')`)
          : null,
      updatedAt: sql`now()`,
    })
    .where(eq(erpOrders.orderId, orderId));
}

/** The store order a note belongs to (a notification names the note). */
export async function findOrderIdByInvoice(db: Db, invoiceId: string): Promise<string | null> {
  const [row] = await db
    .select({ orderId: erpOrders.orderId })
    .from(erpOrders)
    .where(eq(erpOrders.invoiceId, invoiceId));
  return row?.orderId ?? null;
}

/** The authorized NF-e's access key of an order, for its carrier label; null without one. */
export async function authorizedInvoiceKey(db: Db, orderId: string): Promise<string | null> {
  const [row] = await db
    .select({ key: erpOrders.invoiceKey })
    .from(erpOrders)
    .where(and(eq(erpOrders.orderId, orderId), eq(erpOrders.invoiceState, 'authorized')));
  return row?.key ?? null;
}

/** What the dashboard warns of: notes SEFAZ rejected (the latest, with its reason), orders refused. */
export async function erpAlerts(db: Db): Promise<{
  rejected: { orderId: string; reason: string | null }[];
  rejectedCount: number;
  refusedCount: number;
}> {
  const [rejected, [rejectedCount], [refused]] = await Promise.all([
    db
      .select({ orderId: erpOrders.orderId, reason: erpOrders.invoiceReason })
      .from(erpOrders)
      .where(eq(erpOrders.invoiceState, 'rejected'))
      .orderBy(desc(erpOrders.updatedAt))
      .limit(5),
    db.select({ n: count() }).from(erpOrders).where(eq(erpOrders.invoiceState, 'rejected')),
    db.select({ n: count() }).from(erpOrders).where(eq(erpOrders.sendState, 'refused')),
  ]);
  return {
    rejected,
    rejectedCount: Number(rejectedCount?.n ?? 0),
    refusedCount: Number(refused?.n ?? 0),
  };
}
