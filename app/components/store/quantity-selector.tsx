import { useId, useState } from 'react';

// aria-disabled rather than disabled: the button keeps focus when the limit is reached.
export const STEP_BUTTON =
  'btn btn-outline w-11 px-0 text-lg aria-disabled:cursor-not-allowed aria-disabled:opacity-60';

function clamp(value: number, max: number): number {
  return Math.min(Math.max(value, 1), max);
}

/**
 * How many to buy, from 1 to `max`: − and + buttons around a labelled number input. Typed values
 * are pulled back into range; before JavaScript the input's min/max let the browser check them.
 */
export function QuantitySelector({ max, name = 'quantity' }: { max: number; name?: string }) {
  const id = useId();
  // The text as typed, so the field can be empty for a moment while the shopper types over it.
  const [text, setText] = useState('1');
  const value = clamp(Number.parseInt(text, 10) || 1, max);

  const step = (delta: number) => setText(String(clamp(value + delta, max)));

  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-semibold">
        Quantidade
      </label>
      <div className="flex items-center gap-2">
        <button
          type="button"
          className={STEP_BUTTON}
          aria-label="Diminuir quantidade"
          aria-controls={id}
          aria-disabled={value <= 1}
          onClick={() => step(-1)}
        >
          <span aria-hidden="true">−</span>
        </button>
        <input
          id={id}
          name={name}
          type="number"
          inputMode="numeric"
          min={1}
          max={max}
          step={1}
          required
          value={text}
          onChange={(event) => {
            const typed = event.target.value;
            setText(typed === '' ? '' : String(clamp(Math.trunc(Number(typed)) || 1, max)));
          }}
          onBlur={() => setText(String(value))}
          className="field w-20 text-center"
        />
        <button
          type="button"
          className={STEP_BUTTON}
          aria-label="Aumentar quantidade"
          aria-controls={id}
          aria-disabled={value >= max}
          onClick={() => step(1)}
        >
          <span aria-hidden="true">+</span>
        </button>
      </div>
    </div>
  );
}
