import { useId } from 'react';
import { useFetcher } from 'react-router';

import { useSettings } from '~/components/store/store-data';
import { Money } from '~/components/ui/money';
import { freeShippingFromCents, shippingCents } from '~/modules/pricing';
import { MASKED_LENGTH, maskCep } from '~/modules/checkout';
import type { ShippingEstimate as Estimate } from '~/modules/orders';
import { APPROXIMATE_SHIPPING, type ShippingOptionView } from '~/modules/shipping';

/**
 * 'Calcular frete': the carriers' options for a CEP (service, price, delivery date), or the
 * shipping price of `amountCents` by the store's rules and the delivery date for the CEP's state.
 * Without JavaScript the form reloads `page` with `?cep=…` and the page's loader answers in
 * `initial`; with it, the same question goes to /frete (with `query`: the product asked about)
 * and nothing reloads.
 */
export function ShippingEstimate({
  amountCents,
  initial,
  page,
  query,
  headingLevel = 2,
}: {
  amountCents: number;
  initial: Estimate | null;
  /** The page the form sends to without JavaScript: its own address. */
  page: string;
  /** `produto` and `variante` for a product's page; none: the cart. */
  query?: Record<string, string>;
  headingLevel?: 2 | 3;
}) {
  const id = useId();
  const fetcher = useFetcher<Estimate>();
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
          void fetcher.load(`/frete?${new URLSearchParams({ ...query, cep })}`);
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
  estimate: Extract<Estimate, { ok: true }>;
}) {
  const settings = useSettings();
  const destination = (
    <p data-testid="shipping-destination">
      CEP {estimate.cep}: {estimate.stateName} ({estimate.state})
    </p>
  );
  if (estimate.shipping.kind === 'carrier') {
    return (
      <>
        {destination}
        <ul className="flex flex-col gap-1" data-testid="shipping-options">
          {estimate.shipping.options.map((option) => (
            <li key={option.id} data-testid="shipping-option">
              <ShippingOptionText option={option} />
            </li>
          ))}
        </ul>
      </>
    );
  }
  const cost = shippingCents(amountCents, settings);
  const freeFrom = freeShippingFromCents(settings);
  return (
    <>
      {destination}
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
      {estimate.shipping.approximate ? (
        <p className="font-semibold" data-testid="shipping-approximate">
          {APPROXIMATE_SHIPPING}
        </p>
      ) : null}
    </>
  );
}

/** 'Correios SEDEX: R$ 45,90, chega até sexta-feira, 4 de dezembro', wherever an option is listed. */
export function ShippingOptionText({ option }: { option: ShippingOptionView }) {
  return (
    <>
      <strong>
        {option.carrier} {option.service}
      </strong>
      :{' '}
      {option.chargedCents === 0 ? (
        <strong>Frete grátis</strong>
      ) : (
        <Money cents={option.chargedCents} className="font-semibold" />
      )}
      {option.arrivesBy
        ? `, chega até ${option.arrivesBy}`
        : `, em até ${option.businessDays} ${option.businessDays === 1 ? 'dia útil' : 'dias úteis'}`}
    </>
  );
}
