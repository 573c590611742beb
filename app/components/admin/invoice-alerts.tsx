import { Link } from 'react-router';

import { countOf } from '~/lib/plural';
import { ERP_MESSAGES } from '~/modules/erp';

/**
 * What Bling needs from staff, on the dashboard: connecting again after a revoked authorization,
 * the notes SEFAZ rejected (with its reason) and the orders Bling refused. Nothing when all is well.
 */
export function InvoiceAlerts({
  revoked,
  rejected,
  rejectedCount,
  refusedCount,
}: {
  revoked: boolean;
  rejected: { orderId: string; reason: string | null }[];
  rejectedCount: number;
  refusedCount: number;
}) {
  if (!revoked && rejectedCount === 0 && refusedCount === 0) return null;
  return (
    <section
      aria-labelledby="alertas-bling"
      className="admin-card space-y-2 border-red-300 bg-red-50 text-sm text-red-950"
      data-testid="invoice-alerts"
    >
      <h2 id="alertas-bling" className="font-semibold">
        Notas fiscais (Bling)
      </h2>
      {revoked ? (
        <p>
          {ERP_MESSAGES.revoked}{' '}
          <Link to="/admin/integrations" className="underline">
            Abrir as integrações
          </Link>
        </p>
      ) : null}
      {rejectedCount > 0 ? (
        <>
          <p>{`${countOf(rejectedCount, 'nota rejeitada', 'notas rejeitadas')} pela SEFAZ: corrija no Bling e use “Tentar de novo” no pedido.`}</p>
          <ul className="list-disc space-y-1 pl-5">
            {rejected.map((note) => (
              <li key={note.orderId}>
                <Link to={`/admin/orders/${note.orderId}`} className="underline">
                  Ver pedido
                </Link>
                {note.reason ? `: ${note.reason}` : ''}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {refusedCount > 0 ? (
        <p>{`${countOf(refusedCount, 'pedido recusado', 'pedidos recusados')} pelo Bling: veja o motivo no pedido.`}</p>
      ) : null}
    </section>
  );
}
