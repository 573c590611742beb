import { Link } from 'react-router';

export interface CheckoutAccount {
  email: string;
  addresses: { id: string; line: string }[];
  chosenId: string | null;
}

/**
 * Above the checkout's form: a guest is offered to sign in (and may buy without); a signed-in
 * shopper picks one of their saved addresses, which fills the form (a whole page load, so the
 * form's fields start from it).
 */
export function CheckoutAccountBox({
  account,
  signInHref,
}: {
  account: CheckoutAccount | null;
  signInHref: string;
}) {
  if (!account) {
    return (
      <p className="mb-6 rounded-card border border-card-border bg-card p-4 text-sm">
        Já comprou aqui?{' '}
        <Link to={signInHref} className="font-semibold text-link underline">
          Entre com seu e-mail
        </Link>{' '}
        para usar seus endereços salvos. Ou continue sem conta.
      </p>
    );
  }
  return (
    <section
      aria-labelledby="checkout-account"
      className="mb-6 flex flex-col gap-2 rounded-card border border-card-border bg-card p-4 text-sm"
    >
      <h2 id="checkout-account" className="font-semibold">
        Você entrou como {account.email}
      </h2>
      {account.addresses.length > 0 ? (
        <ul className="flex flex-col gap-1" aria-label="Endereços salvos">
          {account.addresses.map((address) => (
            <li key={address.id}>
              {address.id === account.chosenId ? (
                <span aria-current="true">
                  <strong>Entregar em:</strong> {address.line}
                </span>
              ) : (
                <Link
                  to={`/checkout?endereco=${address.id}`}
                  reloadDocument
                  className="text-link underline"
                >
                  Usar {address.line}
                </Link>
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
