import type { OrderStatus } from '~/modules/orders';
import { ADMIN_STATUS_LABELS } from '~/modules/orders/index.admin';

// SPEC §4's colours, dark enough on their tints to read at AA contrast.
const BADGE_CLASSES: Record<OrderStatus, string> = {
  pending: 'bg-yellow-100 text-yellow-900 ring-yellow-300',
  confirmed: 'bg-blue-100 text-blue-900 ring-blue-300',
  shipped: 'bg-purple-100 text-purple-900 ring-purple-300',
  delivered: 'bg-green-100 text-green-900 ring-green-300',
  cancelled: 'bg-red-100 text-red-900 ring-red-300',
};

/** An order's status as a coloured badge; a status the admin does not know reads 'Desconhecido'. */
export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  const known = Object.hasOwn(ADMIN_STATUS_LABELS, status);
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset ${
        known ? BADGE_CLASSES[status] : 'bg-slate-100 text-slate-800 ring-slate-300'
      }`}
    >
      {known ? ADMIN_STATUS_LABELS[status] : 'Desconhecido'}
    </span>
  );
}
