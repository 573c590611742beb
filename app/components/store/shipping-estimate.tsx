import { useId } from 'react';
import { useFetcher } from 'react-router';

import { useSettings } from '~/components/store/store-data';
import { Money } from '~/components/ui/money';
import { freeShippingFromCents, shippingCents } from '~/modules/pricing';
import { MASKED_LENGTH, maskCep } from '~/modules/checkout';
import type { DeliveryEstimate } from '~/modules/orders';

/**
 * 'Calcular frete': the shipping price of `amountCents` by the store's rules and the delivery
 * date for a CEP's state. Without JavaScript the form reloads `page` with `?cep=…` and the page's
 * loader answers in `initial`; with it, the same question goes to /frete and nothing reloads.
 */
export function ShippingEstimate({
  amountCents,
  initial,
  page,
  headingLevel = 2,
}: {
  amountCents: number;
  initial: DeliveryEstimate | null;
  /** The page the form sends to without JavaScript: its own address. */
  page: string;
  headingLevel?: 2 | 3;
}) {
  const id = useId();
  const fetcher = useFetcher<DeliveryEstimate>();
  const estimate = fetcher.data ?? initial;
  const error = estimate && !estimate.ok ? estimate.error : null;
  const Heading = `h${headingLevel}` as const;

  return (
    <section
      aria-labelledby={`${id}-title`}
      className="flex flex-col gap-3 rounded-card border border-card-border bg-card p-4"
      data-testid="shipping-estimate"
    >
      <Heading id={`${id}-title`} className="text-base font-semibold">
        Calcular frete
      </Heading>
      <form
        method="get"
        action={page}
        className="flex items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          const cep = String(new FormData(event.currentTarget).get('cep') ?? '');
          void fetcher.load(`/frete?${new URLSearchParams({ cep })}`);
        }}
      >
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <label htmlFor={`${id}-cep`} className="text-sm font-semibold">
            CEP
          </label>
          <input
            id={`${id}-cep`}
            name="cep"
            // Keyed by the answer's CEP: a CEP remembered by the server shows up in the field.
            key={initial?.cep}
            defaultValue={initial?.cep ?? ''}
            inputMode="numeric"
            autoComplete="postal-code"
            maxLength={MASKED_LENGTH.zipCode}
            placeholder="00000-000"
            required
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-result`}
            onInput={(event) => {
              event.currentTarget.value = maskCep(event.currentTarget.value);
            }}
            className="field w-full"
          />
        </div>
        <button type="submit" className="btn btn-outline shrink-0">
          Calcular
        </button>
      </form>
      <div
        id={`${id}-result`}
        role="status"
        className="flex flex-col gap-1 text-sm"
        data-testid="shipping-estimate-result"
      >
        {fetcher.state === 'loading' ? (
          <p>Calculando…</p>
        ) : error ? (
          <p className="font-semibold text-danger">{error}</p>
        ) : estimate?.ok ? (
          <ShippingAnswer amountCents={amountCents} estimate={estimate} />
        ) : null}
      </div>
    </section>
  );
}

function ShippingAnswer({
  amountCents,
  estimate,
}: {
  amountCents: number;
  estimate: Extract<DeliveryEstimate, { ok: true }>;
}) {
  const settings = useSettings();
  const cost = shippingCents(amountCents, settings);
  const freeFrom = freeShippingFromCents(settings);
  return (
    <>
      <p data-testid="shipping-destination">
        CEP {estimate.cep}: {estimate.stateName} ({estimate.state})
      </p>
      <p data-testid="shipping-cost">
        {cost === 0 ? (
          <strong>Frete grátis</strong>
        ) : (
          <strong>
            Frete: <Money cents={cost} />
          </strong>
        )}
      </p>
      {cost > 0 && freeFrom !== null ? (
        <p data-testid="free-shipping-from">
          Frete grátis a partir de <Money cents={freeFrom} />
        </p>
      ) : null}
      <p data-testid="delivery-estimate">{estimate.text}</p>
    </>
  );
}
