import {
  restockCountSentence,
  restockUnconfirmedSentence,
  type RestockRequestSummary,
} from '~/modules/catalog';

/**
 * The shoppers waiting for this sold-out product ('Avise-me quando chegar'), beside its stock:
 * saving it with stock above 0 (or stock coming back from a cancelled order) e-mails each one
 * that confirmed its address once. Unconfirmed requests are only counted.
 */
export function RestockRequests({ summary }: { summary: RestockRequestSummary }) {
  if (summary.open === 0 && summary.unconfirmed === 0) return null;
  return (
    <details
      data-testid="restock-requests"
      className="rounded border border-amber-300 bg-amber-50 p-3 text-sm text-slate-900"
    >
      <summary className="cursor-pointer font-semibold">
        {restockCountSentence(summary.open)}
      </summary>
      <p className="mt-2 text-slate-700">
        Cada um recebe um e-mail, uma única vez, assim que o produto voltar ao estoque.
      </p>
      <ul className="mt-2 space-y-1">
        {summary.requests.map((request) => (
          <li key={request.email} className="flex flex-wrap justify-between gap-x-4">
            <span className="break-all">{request.email}</span>
            <span className="text-slate-600">{request.createdAt}</span>
          </li>
        ))}
      </ul>
      {summary.open > summary.requests.length ? (
        <p className="mt-2 text-slate-700">
          Mostrando os {summary.requests.length} pedidos mais recentes.
        </p>
      ) : null}
      {summary.unconfirmed > 0 ? (
        <p className="mt-2 text-slate-700">{restockUnconfirmedSentence(summary.unconfirmed)}</p>
      ) : null}
    </details>
  );
}
