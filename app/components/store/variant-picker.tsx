import { Form } from 'react-router';

import { VARIANT_PARAM, type OptionPicker, type ValueChoice } from '~/modules/catalog';

const UNAVAILABLE: Record<Exclude<ValueChoice['state'], 'chosen' | 'available'>, string> = {
  'sold-out': 'esgotado',
  unavailable: 'indisponível',
};

/**
 * One group of buttons per option ('Tamanho', 'Cor': colours as swatches). It is a GET form, so
 * without JavaScript a button opens the page of its variant (`?variante=SKU`); with it, the
 * router changes the URL (a new history entry: the back button returns to the previous choice)
 * and the page follows without reading the product again. Combinations the product does not
 * offer, or that are sold out, are shown crossed out and cannot be chosen.
 */
export function VariantPicker({ pickers, path }: { pickers: OptionPicker[]; path: string }) {
  return (
    <Form
      method="get"
      action={path}
      preventScrollReset
      className="flex flex-col gap-4"
      data-testid="variant-picker"
    >
      {pickers.map(({ option, values }) => {
        const chosen = values.find((value) => value.choice.state === 'chosen');
        return (
          <fieldset key={option.name} className="flex min-w-0 flex-col gap-2">
            <legend className="mb-2 font-semibold">
              {option.name}
              {chosen ? <span className="font-normal">: {chosen.name}</span> : null}
            </legend>
            <div className="flex flex-wrap gap-2">
              {values.map((value) => (
                <ValueButton
                  key={value.name}
                  name={value.name}
                  color={value.color}
                  choice={value.choice}
                />
              ))}
            </div>
          </fieldset>
        );
      })}
    </Form>
  );
}

function ValueButton({
  name,
  color,
  choice,
}: {
  name: string;
  color?: string;
  choice: ValueChoice;
}) {
  const chosen = choice.state === 'chosen';
  const blocked = choice.state === 'sold-out' || choice.state === 'unavailable';
  const look = chosen
    ? 'border-primary ring-2 ring-primary'
    : blocked
      ? 'border-dashed border-card-border text-product-description line-through'
      : 'border-card-border hover:border-primary';
  return (
    <button
      type="submit"
      name={VARIANT_PARAM}
      value={choice.state === 'unavailable' ? '' : choice.variant.sku}
      aria-pressed={chosen}
      // Crossed out is not enough: a screen reader hears why it cannot be chosen.
      aria-label={blocked ? `${name}, ${UNAVAILABLE[choice.state]}` : undefined}
      disabled={blocked}
      className={`inline-flex min-h-11 min-w-11 items-center justify-center gap-2 rounded-button border-2 bg-card px-3 text-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary ${look}`}
      data-testid="variant-value"
      data-state={choice.state}
    >
      {color ? (
        <span
          aria-hidden="true"
          className={`h-5 w-5 shrink-0 rounded-full border border-card-border ${blocked ? 'opacity-40' : ''}`}
          style={{ backgroundColor: color }}
        />
      ) : null}
      <span>{name}</span>
    </button>
  );
}
