import { Link } from 'react-router';

/** One missing thing, as the readiness flow lists it. */
export interface MissingForSale {
  id: string;
  text: string;
  href: string;
}

/**
 * 'Falta para vender', at the top of a live store's dashboard while anything is missing for a
 * real sale: each item a link to the screen where staff fix it.
 */
export function StoreReadinessPanel({
  missing,
  canTakePayments,
}: {
  missing: readonly MissingForSale[];
  canTakePayments: boolean;
}) {
  return (
    <section
      aria-labelledby="falta-para-vender"
      className="admin-card border-amber-300 bg-amber-50 p-4"
      data-testid="store-readiness"
    >
      <h2 id="falta-para-vender" className="text-lg font-semibold">
        Falta para vender
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        {canTakePayments
          ? 'A loja já recebe pagamentos. Antes da primeira venda real, resolva também:'
          : 'A loja ainda não recebe pagamentos: os clientes leem que ela ainda não está vendendo ' +
            'e os buscadores não a indexam. Antes da primeira venda real, resolva:'}
      </p>
      <ul className="mt-3 list-disc space-y-2 pl-5 text-sm">
        {missing.map((item) => (
          <li key={item.id} data-item={item.id}>
            <Link
              to={item.href}
              className="font-medium break-words text-blue-700 underline hover:text-blue-900"
            >
              {item.text}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
