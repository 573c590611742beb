import { formatCents } from '~/lib/money';
import { describeRange, formatDay, type DayRange } from '~/lib/periods';
import { countOf } from '~/lib/plural';

import { SalesChart } from './sales-chart';

export interface SalesDay {
  day: string;
  cents: number;
  orders: number;
}

const ordersWord = (count: number) => countOf(count, 'pedido pago', 'pedidos pagos');

/**
 * 'Vendas recentes': the chart, and the same figures as a sentence and a table, which the
 * server renders and screen readers read.
 */
export function DashboardSales({ days, range }: { days: readonly SalesDay[]; range: DayRange }) {
  const totalCents = days.reduce((sum, day) => sum + day.cents, 0);
  const totalOrders = days.reduce((sum, day) => sum + day.orders, 0);
  const best = days.reduce((top, day) => (day.cents > top.cents ? day : top), days[0]!);
  return (
    <section aria-labelledby="vendas-recentes" className="admin-card min-w-0">
      <h2 id="vendas-recentes" className="text-lg font-semibold">
        Vendas recentes
      </h2>
      {totalCents === 0 ? (
        <p className="mt-6 mb-4 text-center text-sm text-slate-600">
          Nenhum dado de vendas disponível
        </p>
      ) : (
        <>
          <p className="mt-1 text-sm text-slate-600">
            {formatCents(totalCents)} em {ordersWord(totalOrders)} {describeRange(range)}
            {days.length > 1 && (
              <>
                . Melhor dia: {formatDay(best.day)}, com {formatCents(best.cents)}
              </>
            )}
            .
          </p>
          <div className="mt-4">
            <SalesChart days={days} />
          </div>
          <details className="mt-4 text-sm">
            <summary className="cursor-pointer font-medium text-blue-800">
              Ver vendas por dia
            </summary>
            <div className="mt-2 rounded border border-slate-200">
              <table className="w-full text-left">
                <caption className="sr-only">Vendas por dia {describeRange(range)}</caption>
                <thead className="bg-slate-50">
                  <tr>
                    <th scope="col" className="px-3 py-2 font-medium">
                      Dia
                    </th>
                    <th scope="col" className="px-3 py-2 text-right font-medium">
                      Pedidos pagos
                    </th>
                    <th scope="col" className="px-3 py-2 text-right font-medium">
                      Vendas
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {days.map((day) => (
                    <tr key={day.day} className="border-t border-slate-100">
                      <th scope="row" className="px-3 py-1.5 font-normal">
                        {formatDay(day.day)}
                      </th>
                      <td className="px-3 py-1.5 text-right tabular-nums">{day.orders}</td>
                      <td className="px-3 py-1.5 text-right tabular-nums">
                        {formatCents(day.cents)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </>
      )}
    </section>
  );
}
