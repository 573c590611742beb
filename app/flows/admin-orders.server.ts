import type { Db } from '~/db/database.server';
import { blingInvoiceLink, ERP_MESSAGES } from '~/modules/erp';
import { getErpOrder, isConnected } from '~/modules/erp/index.server';
import { logger } from '~/lib/logger.server';
import { ADMIN_ORDER_MESSAGES } from '~/modules/orders/index.admin';
import {
  getAdminOrder,
  type OrderAction,
  type OrderListAction,
} from '~/modules/orders/index.admin.server';
import type { OrderEventOptions } from '~/modules/orders/index.server';
import type { PaymentProvider } from '~/modules/payments';
import type { SettingsStore } from '~/modules/settings/index.server';
import type { MelhorEnvioLabels } from '~/modules/shipping/index.server';

import {
  addOrderNote,
  changeOrderStatus,
  changeTrackingCode,
  deleteOrderByStaff,
  markPaidByStaff,
} from './admin-order-status.server';
import { issueInvoicesBy, retryInvoiceBy, sendOrderToErpBy } from './erp-orders.server';
import { staffActor, type StaffMember, type StaffResult } from './order-changes.server';
import { canRefundOrder, refundOrderByStaff } from './refund-order.server';
import {
  buyShippingLabel,
  buyShippingLabels,
  LABEL_MESSAGES,
  labelsSummary,
  type BatchLabelResult,
  type LabelScope,
} from './shipping-labels.server';

/** What the order screens (the list and the order) need of the request's context. */
interface OrderScreenScope {
  db: Db;
  orderEvents: OrderEventOptions;
  settings: Pick<SettingsStore, 'get'>;
  payments(): Promise<PaymentProvider | null>;
  shippingLabels(): Promise<MelhorEnvioLabels | null>;
}

/** A staff action's answer; 500 when it failed unexpectedly (logged), with what staff read. */
export type OrderScreenResult = StaffResult | { ok: false; status: 500; error: string };

/**
 * The order as staff open it, or a 404 to answer: with what the screen offers on it, each only
 * where the server would do it (the action checks again): 'Reembolsar' when the store's provider
 * took its payment, 'Gerar etiqueta' with a carrier integration.
 */
export async function loadStaffOrder(scope: OrderScreenScope, orderId: string) {
  const order = await getAdminOrder(scope.db, orderId);
  if (!order) {
    return { ok: false as const, status: 404 as const, error: ADMIN_ORDER_MESSAGES.notFound };
  }
  const [{ timezone }, payments, erp, erpConnected] = await Promise.all([
    scope.settings.get(),
    scope.payments(),
    getErpOrder(scope.db, orderId),
    isConnected(scope.db, 'bling'),
  ]);
  return {
    ok: true as const,
    order,
    timeZone: timezone,
    refundable: canRefundOrder(order, payments),
    labels: (await scope.shippingLabels()) !== null,
    // Its sales order and NF-e at Bling, and whether 'Enviar ao Bling' / 'Emitir NF-e' may go.
    erp,
    erpConnected,
  };
}

async function labelScope(scope: OrderScreenScope): Promise<LabelScope> {
  return {
    db: scope.db,
    labels: await scope.shippingLabels(),
    settings: await scope.settings.get(),
    events: scope.orderEvents,
  };
}

/** What staff read when an action on the order failed unexpectedly. */
const FAILURES: Record<OrderAction['intent'], string> = {
  status: ADMIN_ORDER_MESSAGES.statusError,
  tracking: ADMIN_ORDER_MESSAGES.statusError,
  'mark-paid': ADMIN_ORDER_MESSAGES.statusError,
  refund: ADMIN_ORDER_MESSAGES.refundError,
  label: LABEL_MESSAGES.error,
  note: ADMIN_ORDER_MESSAGES.noteError,
  delete: ADMIN_ORDER_MESSAGES.deleteError,
  'erp-send': ERP_MESSAGES.failed,
  invoice: ERP_MESSAGES.failed,
  'invoice-retry': ERP_MESSAGES.failed,
};

async function run(
  scope: OrderScreenScope,
  orderId: string,
  form: OrderAction,
  admin: StaffMember,
): Promise<StaffResult> {
  switch (form.intent) {
    case 'status': {
      const changed = await changeOrderStatus(
        scope.db,
        { orderId, to: form.status, trackingCode: form.trackingCode ?? null, admin },
        scope.orderEvents,
      );
      // Cancelling here does not cancel an authorized NF-e: staff must do that in Bling.
      const erp =
        changed.ok && form.status === 'cancelled' ? await getErpOrder(scope.db, orderId) : null;
      if (changed.ok && erp?.invoiceState === 'authorized' && erp.invoiceId) {
        return {
          ok: true,
          warning: true,
          message: `${changed.message} ${ERP_MESSAGES.cancelInBling(blingInvoiceLink(erp.invoiceId))}`,
        };
      }
      return changed;
    }
    case 'tracking':
      return changeTrackingCode(scope.db, { orderId, trackingCode: form.trackingCode, admin });
    case 'mark-paid':
      return markPaidByStaff(scope.db, orderId, admin, scope.orderEvents);
    case 'refund':
      return refundOrderByStaff(
        scope.db,
        await scope.payments(),
        orderId,
        admin,
        scope.orderEvents,
      );
    case 'label':
      return buyShippingLabel(await labelScope(scope), orderId, admin);
    case 'note':
      return addOrderNote(scope.db, { orderId, note: form.note, admin });
    case 'delete':
      return deleteOrderByStaff(scope.db, orderId, admin);
    case 'erp-send':
      return sendOrderToErpBy(scope.db, orderId, staffActor(admin));
    case 'invoice':
      return issueInvoicesBy(scope.db, [orderId], staffActor(admin));
    case 'invoice-retry':
      return retryInvoiceBy(scope.db, orderId, staffActor(admin));
  }
}

/**
 * One of the order's forms, by the flow that does it: a status, the tracking code, 'Marcar como
 * pago', 'Reembolsar', 'Gerar etiqueta', a note, 'Excluir'.
 */
export async function runOrderAction(
  scope: OrderScreenScope,
  orderId: string,
  form: OrderAction,
  admin: StaffMember,
): Promise<OrderScreenResult> {
  try {
    return await run(scope, orderId, form, admin);
  } catch (error) {
    logger.error({ err: error, orderId, intent: form.intent }, 'Order action failed');
    return { ok: false, status: 500, error: FAILURES[form.intent] };
  }
}

/** Whether the list offers 'Emitir NF-e' for the orders ticked: Bling is connected. */
export function invoicesOnList(scope: Pick<OrderScreenScope, 'db'>): Promise<boolean> {
  return isConnected(scope.db, 'bling');
}

/** 'Emitir NF-e' for the orders ticked on the list, through the ERP. */
export async function issueListInvoices(
  scope: Pick<OrderScreenScope, 'db'>,
  orderIds: string[],
  admin: StaffMember,
): Promise<OrderScreenResult> {
  try {
    return await issueInvoicesBy(scope.db, orderIds, staffActor(admin));
  } catch (error) {
    logger.error({ err: error }, 'NF-e request failed');
    return { ok: false, status: 500, error: ERP_MESSAGES.failed };
  }
}

/** 'Cancelar pedido' and 'Excluir' on the list. */
export async function runOrderListAction(
  scope: OrderScreenScope,
  form: Exclude<OrderListAction, { intent: 'labels' | 'invoices' }>,
  admin: StaffMember,
): Promise<OrderScreenResult> {
  try {
    return form.intent === 'cancel'
      ? await changeOrderStatus(
          scope.db,
          { orderId: form.id, to: 'cancelled', trackingCode: null, admin },
          scope.orderEvents,
        )
      : await deleteOrderByStaff(scope.db, form.id, admin);
  } catch (error) {
    logger.error({ err: error, orderId: form.id, intent: form.intent }, 'Order list action failed');
    const failure =
      form.intent === 'cancel'
        ? ADMIN_ORDER_MESSAGES.statusError
        : ADMIN_ORDER_MESSAGES.deleteError;
    return { ok: false, status: 500, error: failure };
  }
}

/** 'Gerar etiquetas' on the list: what each ticked order came to, and the summary staff read. */
export interface ListLabels {
  /** Whether every order got its label. */
  ok: boolean;
  message: string;
  labels: BatchLabelResult[];
}

/** 'Gerar etiquetas' for the orders ticked on the list, each on its own. */
export async function buyListLabels(
  scope: OrderScreenScope,
  orderIds: string[],
  admin: StaffMember,
): Promise<ListLabels | { ok: false; status: 500; error: string }> {
  try {
    const labels = await buyShippingLabels(await labelScope(scope), orderIds, admin);
    return { ok: labels.every((label) => label.ok), message: labelsSummary(labels), labels };
  } catch (error) {
    logger.error({ err: error }, 'Shipping labels failed');
    return { ok: false, status: 500, error: LABEL_MESSAGES.error };
  }
}
