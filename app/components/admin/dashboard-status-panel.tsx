import { Link } from 'react-router';

import type { DayRange } from '~/lib/periods';
import type { OrderStatus } from '~/modules/orders';

// SPEC §4's colours: pending yellow, confirmed blue, shipped purple, delivered green, cancelled red.
const ROWS: { status: OrderStatus; label: string; dot: string }[] = [
  { status: 'confirmed', label: 'Confirmados', dot: 'bg-blue-600' },
  { status: 'pending', label: 'Pendentes', dot: 'bg-yellow-500' },
  { status: 'shipped', label: 'Enviados', dot: 'bg-purple-600' },
  { status: 'delivered', label: 'Entregues', dot: 'bg-green-600' },
  { status: 'cancelled', label: 'Cancelados', dot: 'bg-red-600' },
];

/** The orders placed in the period, by their status now, each a link to that list of orders. */
export function DashboardStatusPanel({
  counts,
  range,
}: {
  counts: Record<OrderStatus, number>;
  range: DayRange;
}) {
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
  const ordersOf = (status?: OrderStatus) =>
    `/admin/orders?${new URLSearchParams({ ...(status && { status }), from: range.from, to: range.to })}`;
  return (
    <section aria-labelledby="status-pedidos" className="admin-card">
      <h2 id="status-pedidos" className="text-lg font-semibold">
        Status dos Pedidos
      </h2>
      <dl className="mt-3 divide-y divide-slate-100 text-sm">
        {ROWS.map((row) => (
          <div key={row.status} className="flex items-center justify-between gap-3 py-2">
            <dt className="flex items-center gap-2">
              <span aria-hidden="true" className={`h-2.5 w-2.5 rounded-full ${row.dot}`} />
              <Link
                to={ordersOf(row.status)}
                className="text-blue-800 underline-offset-2 hover:underline"
              >
                {row.label}
              </Link>
            </dt>
            <dd className="font-semibold tabular-nums" data-status={row.status}>
              {counts[row.status]}
            </dd>
          </div>
        ))}
        <div className="flex items-center justify-between gap-3 py-2 font-semibold">
          <dt>
            <Link to={ordersOf()} className="text-blue-800 underline-offset-2 hover:underline">
              Total
            </Link>
          </dt>
          <dd className="tabular-nums" data-status="total">
            {total}
          </dd>
        </div>
      </dl>
    </section>
  );
}
