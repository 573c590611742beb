import { Form, Link, useLocation } from 'react-router';

import { useRootData } from '~/components/store/store-data';

// Consent changes which scripts the server puts in the page, so these forms reload the document:
// the next page is rendered with (or without) the tracking scripts, like the first visit.
function ConsentForm({ children }: { children: React.ReactNode }) {
  const location = useLocation();
  return (
    <Form method="post" action="/preferences" reloadDocument className="flex flex-wrap gap-2">
      <input type="hidden" name="intent" value="consent" />
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      {children}
    </Form>
  );
}

function ConsentButtons() {
  return (
    <>
      <button type="submit" name="consent" value="granted" className="btn btn-primary">
        Aceitar cookies
      </button>
      <button type="submit" name="consent" value="denied" className="btn btn-outline">
        Recusar
      </button>
    </>
  );
}

/** The LGPD banner: shown until the shopper answers, only when the store has tracking set up. */
export function ConsentBanner() {
  return (
    <section
      aria-label="Consentimento de cookies"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-card-border bg-card p-4 shadow-lg"
    >
      <div className="mx-auto flex max-w-store flex-col gap-3 md:flex-row md:items-center">
        <p className="text-sm md:flex-1">
          Usamos cookies de análise e publicidade para entender como a loja é usada e mostrar
          ofertas relevantes. Eles só são ativados se você aceitar. Saiba mais na nossa{' '}
          <Link to="/politicaprivacidade" className="text-link underline">
            Política de privacidade
          </Link>
          .
        </p>
        <ConsentForm>
          <ConsentButtons />
        </ConsentForm>
      </div>
    </section>
  );
}

/** Lets the shopper see and change the answer later (privacy page). */
export function ConsentPreferences() {
  const consent = useRootData()?.consent ?? null;
  const state =
    consent === 'granted'
      ? 'Você aceitou os cookies de análise e publicidade.'
      : consent === 'denied'
        ? 'Você recusou os cookies de análise e publicidade.'
        : 'Você ainda não escolheu se aceita os cookies de análise e publicidade.';
  return (
    <section
      aria-labelledby="cookie-preferences"
      className="product-card my-6 flex flex-col gap-3 hover:transform-none"
    >
      <h2 id="cookie-preferences" className="text-lg">
        Preferências de cookies
      </h2>
      <p role="status">{state}</p>
      <p className="text-sm">
        Cookies necessários, como o do carrinho, funcionam sempre. Os de análise e publicidade
        dependem da sua escolha, que você pode mudar quando quiser.
      </p>
      <ConsentForm>
        <ConsentButtons />
      </ConsentForm>
    </section>
  );
}
