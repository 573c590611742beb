import { Link } from 'react-router';

import { Money } from '~/components/ui/money';
import { formatDate } from '~/lib/date-format';
import type { AdminOrderRow } from '~/modules/orders/index.admin';

import { AdminTable } from './admin-table';
import { ConfirmDialog } from './confirm-dialog';
import { OrderStatusBadge } from './order-status-badge';

export const DELETE_ORDER_QUESTION =
  'Tem certeza que deseja excluir este pedido? Esta ação não pode ser desfeita.';

/**
 * 'Cancelar pedido', asked first: on the order's page (posting `intent=status`) and in the list
 * (posting `intent=cancel` with the order's id).
 */
export function CancelOrderDialog({
  number,
  paid,
  action,
  fields,
}: {
  number: string;
  paid: boolean;
  action: string;
  fields: Record<string, string>;
}) {
  return (
    <ConfirmDialog
      title={`Cancelar pedido ${number}?`}
      message={
        <>
          <p>
            Os produtos voltam ao estoque e o cliente recebe um e-mail avisando do cancelamento.
          </p>
          {paid ? (
            <p className="mt-2 font-semibold">Este pedido já foi pago: reembolse o cliente.</p>
          ) : null}
        </>
      }
      confirmLabel="Sim, cancelar pedido"
      dismissLabel="Voltar"
      busyLabel="Cancelando..."
      triggerLabel={`Cancelar pedido ${number}`}
      triggerClassName="admin-button-secondary text-red-800"
      action={action}
      fields={fields}
    >
      Cancelar pedido
    </ConfirmDialog>
  );
}

interface OrderListProps {
  orders: AdminOrderRow[];
  timeZone: string;
  /** The list's query string ("?status=…"), kept by the detail's and the delete's URLs. */
  search: string;
  /** The id of the 'Gerar etiquetas' / 'Emitir NF-e' form: paid orders get a box to tick for it. */
  labelsForm?: string;
}

/** A paid order's box for 'Gerar etiquetas' (in the form named `form`, outside the table). */
function LabelBox({
  order,
  form,
  idPrefix,
}: {
  order: AdminOrderRow;
  form: string;
  idPrefix: string;
}) {
  if (order.status !== 'confirmed') return null;
  return (
    <input
      type="checkbox"
      id={`${idPrefix}-${order.id}`}
      name="ids"
      value={order.id}
      form={form}
      aria-label={`Selecionar pedido ${order.number} para gerar etiqueta ou emitir NF-e`}
      className="size-5"
    />
  );
}

/**
 * The orders as a table on wide screens and as cards on phones (a table 360 px wide would
 * scroll sideways or crush its columns).
 */
export function OrderList({ orders, timeZone, search, labelsForm }: OrderListProps) {
  return (
    <>
      <AdminTable
        caption="Pedidos"
        shownFrom="md"
        columns={[
          ...(labelsForm ? [{ label: 'Etiqueta' }] : []),
          { label: 'Pedido' },
          { label: 'Cliente' },
          { label: 'Data' },
          { label: 'Status' },
          { label: 'Total', end: true },
          { label: 'Ações', end: true },
        ]}
      >
        {orders.map((order) => (
          <tr key={order.id} data-testid="order-row" className="hover:bg-slate-50">
            {labelsForm ? (
              <td className="px-4 py-3">
                <LabelBox order={order} form={labelsForm} idPrefix="label-row" />
              </td>
            ) : null}
            <td className="px-4 py-3 font-mono font-semibold whitespace-nowrap">{order.number}</td>
            <td className="max-w-64 px-4 py-3">
              <p className="truncate font-medium text-slate-900">{order.customerName}</p>
              <p className="truncate text-slate-600">{order.customerEmail}</p>
            </td>
            <td className="px-4 py-3 whitespace-nowrap">{formatDate(order.createdAt, timeZone)}</td>
            <td className="px-4 py-3">
              <OrderStatusBadge status={order.status} />
            </td>
            <td className="px-4 py-3 text-right">
              <Money cents={order.totalCents} />
            </td>
            <td className="px-4 py-3">
              <OrderActions order={order} search={search} />
            </td>
          </tr>
        ))}
      </AdminTable>
      <ul className="space-y-3 md:hidden">
        {orders.map((order) => (
          <li key={order.id} data-testid="order-card" className="admin-card">
            <div className="flex items-start justify-between gap-2">
              <p className="flex items-center gap-2 font-mono font-semibold">
                {labelsForm ? (
                  <LabelBox order={order} form={labelsForm} idPrefix="label-card" />
                ) : null}
                {order.number}
              </p>
              <OrderStatusBadge status={order.status} />
            </div>
            <p className="mt-2 truncate font-medium">{order.customerName}</p>
            <p className="truncate text-sm text-slate-600">{order.customerEmail}</p>
            <div className="mt-2 flex items-center justify-between text-sm">
              <span>{formatDate(order.createdAt, timeZone)}</span>
              <Money cents={order.totalCents} className="font-semibold" />
            </div>
            <div className="mt-3 border-t border-slate-100 pt-3">
              <OrderActions order={order} search={search} />
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}

function OrderActions({ order, search }: { order: AdminOrderRow; search: string }) {
  return (
    <div className="flex flex-wrap justify-end gap-2">
      <Link
        to={`/admin/orders/${order.id}${search}`}
        // The list shows it in a dialog on wide screens; elsewhere it is a page of its own.
        state={{ modal: true }}
        preventScrollReset
        className="admin-button-secondary"
      >
        Ver<span className="sr-only"> pedido {order.number}</span>
      </Link>
      {order.canDelete ? (
        <ConfirmDialog
          title={`Excluir pedido ${order.number}`}
          message={DELETE_ORDER_QUESTION}
          confirmLabel="Excluir"
          busyLabel="Excluindo..."
          triggerLabel={`Excluir pedido ${order.number}`}
          action={`/admin/orders${search}`}
          fields={{ intent: 'delete', id: order.id }}
        >
          Excluir
        </ConfirmDialog>
      ) : order.canCancel ? (
        // A paid order is kept: staff cancel (and refund) it instead.
        <CancelOrderDialog
          number={order.number}
          paid={order.paid}
          action={`/admin/orders${search}`}
          fields={{ intent: 'cancel', id: order.id }}
        />
      ) : null}
    </div>
  );
}
