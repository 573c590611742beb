import { stringify } from 'csv-stringify/sync';

import { csvAmount } from '~/lib/csv';
import { formatDateTime } from '~/lib/date-format';
import type { Db } from '~/db/database.server';
import { logger } from '~/lib/logger.server';
import { ownEntry } from '~/lib/lookup';

import { displayCpf, displayPhone, PAYMENT_STATUS_LABELS } from './admin-display';
import type { OrderFilters } from './admin-filters';
import { adminOrderBatches } from './admin-orders.server';
import type { AdminOrderExportRow } from './admin-types';
import { addressLine } from './display';
import { ADMIN_STATUS_LABELS } from './status-labels';

const HEADER = [
  'Pedido',
  'ID',
  'Data',
  'Status',
  'Cliente',
  'E-mail',
  'Telefone',
  'CPF',
  'Endereço',
  'Subtotal',
  'Frete',
  'Desconto PIX',
  'Cupom',
  'Desconto do cupom',
  'Total',
  'Forma de pagamento',
  'Status do pagamento',
  'Pago em',
  'Código de rastreio',
  'Itens',
];

// As Excel opens a CSV in Brazil: ';' between fields (',' is the decimal mark), Windows line
// ends; a leading = + - @ is escaped so no cell runs as a formula (CSV injection).
const FORMAT = { delimiter: ';', record_delimiter: 'windows', escape_formulas: true } as const;

function record(order: AdminOrderExportRow, timeZone: string): string[] {
  return [
    order.number,
    order.id,
    formatDateTime(order.createdAt, timeZone).replace(' às ', ' '),
    ADMIN_STATUS_LABELS[order.status],
    order.customerName,
    order.customerEmail,
    displayPhone(order.customerPhone),
    displayCpf(order.customerCpf),
    addressLine(order.address),
    csvAmount(order.subtotalCents),
    csvAmount(order.shippingCents),
    csvAmount(order.pixDiscountCents),
    order.couponCode ?? '',
    csvAmount(order.couponDiscountCents),
    csvAmount(order.totalCents),
    order.paymentMethod.toUpperCase(),
    order.paymentStatus
      ? (ownEntry(PAYMENT_STATUS_LABELS, order.paymentStatus) ?? order.paymentStatus)
      : '',
    order.paidAt ? formatDateTime(order.paidAt, timeZone).replace(' às ', ' ') : '',
    order.trackingCode ?? '',
    order.items,
  ];
}

/**
 * The orders matching the filters as a CSV (UTF-8 with a BOM, so Excel reads the accents),
 * produced a batch at a time as the client reads it: memory stays flat whatever the store's size.
 */
export function ordersCsvStream(
  db: Db,
  filters: OrderFilters,
  options: { timeZone: string },
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const batches = adminOrderBatches(db, filters, options);
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(stringify([HEADER], { ...FORMAT, bom: true })));
        return;
      }
      try {
        const next = await batches.next();
        if (next.done) return controller.close();
        const rows = next.value.map((order) => record(order, options.timeZone));
        controller.enqueue(encoder.encode(stringify(rows, FORMAT)));
      } catch (error) {
        logger.error({ err: error }, 'Order export failed midway');
        controller.error(error);
      }
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
}
