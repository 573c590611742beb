import { stringify } from 'csv-stringify/sync';

import { csvAmount } from '~/lib/csv';
import { formatDateTime } from '~/lib/date-format';

import type { AdminCoupon } from './admin-coupons.server';
import {
  COUPON_KIND_LABELS,
  COUPON_STATE_LABELS,
  couponState,
  couponValueText,
} from './coupon-form';

/** A coupon with the orders that used it, as the orders domain counts them. */
export type CouponReportRow = AdminCoupon & { orders: number; revenueCents: number };

const HEADER = [
  'Código',
  'Tipo',
  'Desconto',
  'Pedido mínimo',
  'Início',
  'Fim',
  'Usos',
  'Limite de usos',
  'Limite por cliente',
  'Só primeira compra',
  'Produtos',
  'Categorias',
  'Situação',
  'Pedidos',
  'Receita dos pedidos',
];

// As the orders' export: ';' between fields, Windows line ends, no cell run as a formula.
const FORMAT = { delimiter: ';', record_delimiter: 'windows', escape_formulas: true } as const;

const moment = (date: Date | null, timeZone: string) =>
  date ? formatDateTime(date, timeZone).replace(' às ', ' ') : '';

/** The coupons as a spreadsheet (UTF-8 with a BOM, so Excel reads the accents). */
export function couponsCsv(
  rows: CouponReportRow[],
  options: { timeZone: string; now: Date },
): string {
  const records = rows.map((coupon) => [
    coupon.code,
    COUPON_KIND_LABELS[coupon.kind],
    // The amount as a spreadsheet reads it; a percentage and free shipping as the list says them.
    coupon.kind === 'fixed' ? csvAmount(coupon.value) : couponValueText(coupon.kind, coupon.value),
    csvAmount(coupon.minSubtotalCents),
    moment(coupon.startsAt, options.timeZone),
    moment(coupon.endsAt, options.timeZone),
    String(coupon.usedCount),
    coupon.usageLimit === null ? '' : String(coupon.usageLimit),
    coupon.usageLimitPerCustomer === null ? '' : String(coupon.usageLimitPerCustomer),
    coupon.firstPurchaseOnly ? 'Sim' : 'Não',
    String(coupon.productIds.length),
    String(coupon.categoryIds.length),
    COUPON_STATE_LABELS[couponState(coupon, options.now)],
    String(coupon.orders),
    csvAmount(coupon.revenueCents),
  ]);
  return stringify([HEADER, ...records], { ...FORMAT, bom: true });
}
