import type { Db } from '~/db/database.server';
import { logger } from '~/lib/logger.server';
import { variantLabel } from '~/modules/catalog';
import { ERP_EVENT_NOTES, ERP_LABELS, ERP_MESSAGES, type ErpOrderView } from '~/modules/erp';
import {
  accessToken,
  ERP_TOPICS,
  ErpError,
  expireAccessToken,
  findOrderIdByInvoice,
  getErpOrder,
  nextInvoiceRead,
  isConnected,
  lockErpOrder,
  recordErpRefusal,
  recordErpSent,
  recordInvoice,
  requestErpInvoice,
  requestErpSend,
  requestInvoiceRetry,
  type Erp,
  type ErpInvoice,
  type ErpJob,
  type ErpOrderInput,
  type TokenVault,
} from '~/modules/erp/index.server';
import { enqueue } from '~/modules/jobs/index.server';
import { wasPaid, type OrderView } from '~/modules/orders';
import { paymentMethodLabel } from '~/modules/orders/index.admin';
import { EVENT_ACTORS, getOrder, lockOrder, recordOrderEvent } from '~/modules/orders/index.server';
import type { SettingsStore } from '~/modules/settings/index.server';

// The store's orders and their NF-e at the merchant's ERP (issue 42, ADR 048): a paid order goes
// there through the outbox (once, whatever is retried), its NF-e is generated and sent to SEFAZ
// when staff ask (or at once with invoice_on = paid), and its state is read back until SEFAZ
// answers. The ERP's notifications are only hints to read the note again.

/** The ERP in force and what its calls need: null while it is not set up. */
export interface ErpAccess {
  erp: Erp;
  /** Seals and opens its tokens under the secrets key. */
  vault: TokenVault;
}

export interface ErpScope {
  db: Db;
  erp: () => Promise<ErpAccess | null>;
  settings: Pick<SettingsStore, 'get'>;
  now?: () => Date;
}

/** Who asked, as the timeline names them. */
export interface ErpActor {
  actor: string;
  adminUserId?: string | null;
}

const BY_SYSTEM: ErpActor = { actor: EVENT_ACTORS.system };

/** The payment providers that take the money as an NF-e's intermediary (CNPJ and name). */
const INTERMEDIARIES: Record<string, { cnpj: string; name: string }> = {
  mercadopago: { cnpj: '10573521000191', name: 'Mercado Pago' },
};

function calendarDay(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone }).format(date);
}

/** The order as the ERP takes it; a line without SKU cannot be found there. */
export function erpOrderInput(order: OrderView, timeZone: string): ErpOrderInput | string {
  const missing = order.lines.find((line) => !line.sku);
  if (missing) return `O item ${variantLabel(missing)} não tem código (SKU) para achá-lo no ERP.`;
  const discountCents = -order.adjustments.reduce(
    (sum, adjustment) => sum + Math.min(adjustment.cents, 0),
    0,
  );
  return {
    storeNumber: order.number.replace(/^#/, ''),
    date: calendarDay(order.paidAt ?? order.createdAt, timeZone),
    customer: {
      name: order.customer.name,
      email: order.customer.email,
      phone: order.customer.phone,
      document: order.customer.cpf.replace(/\D/g, ''),
      address: {
        street: order.address.street,
        number: order.address.number,
        complement: order.address.complement ?? '',
        district: order.address.neighborhood,
        zip: order.address.zipCode,
        city: order.address.city,
        state: order.address.state,
      },
    },
    lines: order.lines.map((line) => ({
      sku: line.sku!,
      name: variantLabel(line),
      quantity: line.quantity,
      unitPriceCents: line.unitPriceCents,
    })),
    discountCents,
    shippingCents: order.shippingCents,
    totalCents: order.totalCents,
    paymentLabel: paymentMethodLabel(order.paymentMethod),
    intermediary: INTERMEDIARIES[order.payment.provider ?? ''] ?? null,
  };
}

type StaffReply = { ok: true; message: string } | { ok: false; status: 404 | 409; error: string };

/** 'Enviar ao Bling': a paid order queued for the ERP, once. */
export async function sendOrderToErpBy(db: Db, orderId: string, by: ErpActor): Promise<StaffReply> {
  return db.transaction(async (tx): Promise<StaffReply> => {
    const order = await lockOrder(tx, orderId);
    if (!order) return { ok: false, status: 404, error: ERP_MESSAGES.notFound };
    if (!wasPaid(order) || order.status === 'cancelled') {
      return { ok: false, status: 409, error: ERP_MESSAGES.notPaid };
    }
    if (!(await isConnected(tx, 'bling'))) {
      return { ok: false, status: 409, error: ERP_MESSAGES.notConnected };
    }
    const queued = await requestErpSend(tx, orderId, 'bling');
    if (queued === 'already') return { ok: true, message: ERP_MESSAGES.alreadySent };
    await recordOrderEvent(tx, { orderId, kind: 'invoice', ...by, note: ERP_MESSAGES.sendQueued });
    return { ok: true, message: ERP_MESSAGES.sendQueued };
  });
}

/** 'Emitir NF-e' on one order or on the ticked ones: each paid one asked for, in one transaction. */
export async function issueInvoicesBy(
  db: Db,
  orderIds: readonly string[],
  by: ErpActor,
): Promise<StaffReply> {
  return db.transaction(async (tx): Promise<StaffReply> => {
    if (!(await isConnected(tx, 'bling'))) {
      return { ok: false, status: 409, error: ERP_MESSAGES.notConnected };
    }
    let asked = 0;
    let refusal: string | null = null;
    for (const orderId of orderIds) {
      const order = await lockOrder(tx, orderId);
      if (!order) {
        refusal ??= ERP_MESSAGES.notFound;
        continue;
      }
      if (!wasPaid(order) || order.status === 'cancelled') {
        refusal ??= ERP_MESSAGES.notPaid;
        continue;
      }
      const outcome = await requestErpInvoice(tx, orderId, 'bling');
      if (outcome === 'queued') {
        asked++;
        await recordOrderEvent(tx, {
          orderId,
          kind: 'invoice',
          ...by,
          note: ERP_EVENT_NOTES.invoiceRequested,
        });
      } else {
        refusal ??= {
          already: ERP_MESSAGES.invoiceAlready,
          busy: ERP_MESSAGES.invoiceBusy,
          rejected: ERP_MESSAGES.notRejected,
        }[outcome];
      }
    }
    if (asked === 0) return { ok: false, status: 409, error: refusal ?? ERP_MESSAGES.notFound };
    return {
      ok: true,
      message:
        orderIds.length === 1 ? ERP_MESSAGES.invoiceQueued : ERP_MESSAGES.invoicesQueued(asked),
    };
  });
}

/** 'Tentar de novo' on a rejected note. */
export async function retryInvoiceBy(db: Db, orderId: string, by: ErpActor): Promise<StaffReply> {
  return db.transaction(async (tx): Promise<StaffReply> => {
    const order = await lockOrder(tx, orderId);
    if (!order) return { ok: false, status: 404, error: ERP_MESSAGES.notFound };
    if (!(await requestInvoiceRetry(tx, orderId))) {
      return { ok: false, status: 409, error: ERP_MESSAGES.notRejected };
    }
    await recordOrderEvent(tx, { orderId, kind: 'invoice', ...by, note: ERP_EVENT_NOTES.retry });
    return { ok: true, message: ERP_MESSAGES.retryQueued };
  });
}

/**
 * A notification from the ERP: only a hint, checked by its signature, that a note changed; the
 * note is read again from the ERP before anything is recorded.
 */
export async function noteErpNotification(
  scope: Pick<ErpScope, 'db' | 'erp'>,
  rawBody: string,
  signature: string | null,
): Promise<'queued' | 'ignored' | 'unsigned' | 'off'> {
  const access = await scope.erp();
  if (!access) return 'off';
  const invoiceId = access.erp.notifiedInvoice(rawBody, signature);
  if (invoiceId === 'unsigned') return 'unsigned';
  if (invoiceId === null) return 'ignored';
  const orderId = await findOrderIdByInvoice(scope.db, invoiceId);
  if (!orderId) return 'ignored';
  await enqueue(scope.db, ERP_TOPICS.readInvoice, { orderId } satisfies ErpJob);
  return 'queued';
}

function jobOrderId(payload: unknown): string {
  const orderId = (payload as Partial<ErpJob> | null)?.orderId;
  if (typeof orderId !== 'string') throw new Error('ERP job without an order id');
  return orderId;
}

/** The outbox's handlers of the ERP topics, as the background worker registers them. */
export function erpHandlers(
  scope: ErpScope,
): Record<string, (payload: unknown, signal: AbortSignal) => Promise<void>> {
  const now = scope.now ?? (() => new Date());

  /**
   * Runs a call with a good access token. One the ERP refuses before its time (401: the call was
   * not done) is renewed, once for every call that saw it refused, and the call made again.
   */
  async function withToken<T>(access: ErpAccess, call: (token: string) => Promise<T>): Promise<T> {
    const first = await accessToken(scope.db, access.vault, access.erp, now);
    try {
      return await call(first.token);
    } catch (error) {
      if (!(error instanceof ErpError) || error.failure !== 'unauthorized') throw error;
      await expireAccessToken(scope.db, access.erp.name, first.expiresAt, now());
      const renewed = await accessToken(scope.db, access.vault, access.erp, now);
      return call(renewed.token);
    }
  }

  async function ready(payload: unknown) {
    const orderId = jobOrderId(payload);
    const access = await scope.erp();
    if (!access) {
      logger.warn({ orderId }, 'ERP job with no ERP set up; skipped');
      return null;
    }
    const row = await getErpOrder(scope.db, orderId);
    if (!row) return null;
    return { orderId, access, row };
  }

  /** Records the note as read, with its timeline line, e-mail and next read. */
  async function applyInvoice(
    orderId: string,
    before: ErpOrderView,
    invoice: ErpInvoice,
    reads = 0,
  ) {
    const erpName = ERP_LABELS[before.provider];
    await scope.db.transaction(async (tx) => {
      const current = await lockErpOrder(tx, orderId);
      if (!current) return;
      const changed =
        current.invoiceState !== invoice.state || current.invoiceId !== (invoice.id || null);
      await recordInvoice(tx, orderId, invoice);
      const next = invoice.state === 'pending' ? nextInvoiceRead(reads, now()) : null;
      if (next) {
        await enqueue(tx, ERP_TOPICS.readInvoice, { orderId, reads: reads + 1 } satisfies ErpJob, {
          runAt: next,
        });
      }
      if (!changed) return;
      const note =
        invoice.state === 'authorized'
          ? ERP_EVENT_NOTES.authorized(invoice.number ?? '—', invoice.key ?? '—')
          : invoice.state === 'rejected'
            ? ERP_EVENT_NOTES.rejected(invoice.reason ?? current.invoiceReason ?? erpName)
            : invoice.state === 'cancelled'
              ? ERP_EVENT_NOTES.cancelled
              : ERP_EVENT_NOTES.invoicePending;
      await recordOrderEvent(tx, { orderId, kind: 'invoice', ...BY_SYSTEM, note });
      if (invoice.state === 'authorized' && invoice.key) {
        await enqueue(tx, ERP_TOPICS.invoiceEmail, { orderId } satisfies ErpJob);
      }
    });
  }

  async function issue(orderId: string, access: ErpAccess, row: ErpOrderView, signal: AbortSignal) {
    if (!row.erpOrderId || row.invoiceState !== 'issuing') return;
    const erpOrderId = row.erpOrderId;
    let invoice: ErpInvoice;
    try {
      invoice = await withToken(access, (token) =>
        row.invoiceId
          ? access.erp.resendInvoice(token, row.invoiceId, signal)
          : access.erp.issueInvoice(token, erpOrderId, signal),
      );
    } catch (error) {
      if (!(error instanceof ErpError) || error.failure !== 'refused') throw error;
      // Refused before SEFAZ (no note generated: a setting missing in Bling): said as a
      // rejection, in Bling's words, for 'Tentar de novo' once fixed.
      invoice = {
        id: row.invoiceId ?? '',
        state: 'rejected',
        number: null,
        key: null,
        danfeUrl: null,
        reason: error.message,
      };
    }
    await applyInvoice(orderId, row, invoice);
  }

  return {
    [ERP_TOPICS.sendOrder]: async (payload, signal) => {
      const job = await ready(payload);
      if (!job) return;
      const { orderId, access, row } = job;
      if (row.sendState !== 'sent') {
        const [order, settings] = await Promise.all([
          getOrder(scope.db, orderId),
          scope.settings.get(),
        ]);
        if (!order) return;
        const input = erpOrderInput(order, settings.timezone);
        const erpName = ERP_LABELS[access.erp.name];
        let erpOrderId: string | null = null;
        let refusal = typeof input === 'string' ? input : null;
        if (typeof input !== 'string') {
          try {
            erpOrderId = await withToken(access, (token) =>
              access.erp.sendOrder(token, input, signal),
            );
          } catch (error) {
            if (!(error instanceof ErpError) || error.failure !== 'refused') throw error;
            refusal = error.message;
          }
        }
        await scope.db.transaction(async (tx) => {
          const current = await lockErpOrder(tx, orderId);
          if (!current || current.sendState === 'sent') return;
          if (erpOrderId) {
            await recordErpSent(tx, orderId, erpOrderId);
            await recordOrderEvent(tx, {
              orderId,
              kind: 'invoice',
              ...BY_SYSTEM,
              note: ERP_EVENT_NOTES.sent(erpName, erpOrderId),
            });
            // An NF-e asked for before the order got there is issued now; invoice_on = paid
            // asks for it on every order that gets there.
            if (current.invoiceRequested && current.invoiceState === 'issuing') {
              await enqueue(tx, ERP_TOPICS.issueInvoice, { orderId } satisfies ErpJob);
            } else if (!current.invoiceRequested && settings.invoice_on === 'paid') {
              await requestErpInvoice(tx, orderId, access.erp.name);
            }
          } else {
            await recordErpRefusal(tx, orderId, refusal!);
            await recordOrderEvent(tx, {
              orderId,
              kind: 'invoice',
              ...BY_SYSTEM,
              note: ERP_EVENT_NOTES.refused(erpName, refusal!),
            });
          }
        });
      }
    },
    [ERP_TOPICS.issueInvoice]: async (payload, signal) => {
      const job = await ready(payload);
      if (job) await issue(job.orderId, job.access, job.row, signal);
    },
    [ERP_TOPICS.resendInvoice]: async (payload, signal) => {
      const job = await ready(payload);
      if (job) await issue(job.orderId, job.access, job.row, signal);
    },
    [ERP_TOPICS.readInvoice]: async (payload, signal) => {
      const job = await ready(payload);
      if (!job?.row.invoiceId) return;
      const { orderId, access, row } = job;
      const invoiceId = row.invoiceId!;
      const invoice = await withToken(access, (token) =>
        access.erp.readInvoice(token, invoiceId, signal),
      );
      const reads = (payload as ErpJob).reads;
      await applyInvoice(orderId, row, invoice, typeof reads === 'number' ? reads : 0);
    },
  };
}
