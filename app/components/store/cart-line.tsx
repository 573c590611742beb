import { useId, useRef, useState } from 'react';
import { Link, useFetcher } from 'react-router';

import { Money } from '~/components/ui/money';
import { publicFileUrl } from '~/lib/public-files';
import { variantLabel, variantPath } from '~/modules/catalog';
import type { CartReply, PricedLine } from '~/modules/cart';
import { mediaSrcSet } from '~/modules/media';

import { STEP_BUTTON } from './quantity-selector';

// The cart page imports the hook from here, beside the lines it draws.
export { useOptimisticLines } from './optimistic-lines';

const TYPING_PAUSE_MS = 700;

function Hidden({ intent, variantId }: { intent: 'set' | 'remove'; variantId: string }) {
  return (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="variantId" value={variantId} />
    </>
  );
}

/** One variant in the cart: quantity steps, a typed quantity, removal, and the line's total. */
export function CartLineItem({
  line,
  onRemove,
}: {
  line: PricedLine;
  /** Called as the shopper removes the line, to tell them while it disappears. */
  onRemove: (name: string) => void;
}) {
  const fetcher = useFetcher<CartReply>();
  const id = useId();
  const quantityFormId = `${id}-form`;
  const { variantId, quantity, maxQuantity } = line;
  // Two sizes of one shirt are two lines: the buttons' names tell them apart.
  const name = variantLabel(line);

  // The typed text follows the quantity whenever the quantity itself changes (+, −, the server).
  const [text, setText] = useState(String(quantity));
  const [shownQuantity, setShownQuantity] = useState(quantity);
  if (shownQuantity !== quantity) {
    setShownQuantity(quantity);
    setText(String(quantity));
  }

  // A typed quantity applies when the shopper pauses or leaves the field, as − and + apply at
  // once; past the stock the server caps it and says so. Enter sends the form as it did.
  const typingTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  function applyTyped(form: HTMLFormElement | null, typed: string) {
    clearTimeout(typingTimer.current);
    const wanted = Number(typed.trim());
    if (!form || typed.trim() === '' || !Number.isInteger(wanted) || wanted < 0) return;
    if (wanted === quantity) return;
    if (wanted === 0) onRemove(name);
    void fetcher.submit(form);
  }

  const atMaximum = quantity >= maxQuantity;
  const reply = fetcher.data;
  const feedback = reply && (!reply.ok || reply.capped) ? reply.toast.message : '';

  return (
    <li
      className="flex gap-3 rounded-card border border-card-border bg-card p-3 sm:gap-4 sm:p-4"
      data-testid="cart-line"
    >
      {line.imageUrl ? (
        // The product's name follows as a link; the picture adds nothing for a screen reader.
        <img
          src={publicFileUrl(line.imageUrl)}
          srcSet={mediaSrcSet(line.imageUrl)}
          sizes="(min-width: 640px) 96px, 64px"
          alt=""
          width={96}
          height={96}
          className="h-16 w-16 shrink-0 rounded-card object-cover sm:h-24 sm:w-24"
        />
      ) : (
        <div
          aria-hidden="true"
          className="h-16 w-16 shrink-0 rounded-card bg-page sm:h-24 sm:w-24"
        />
      )}
      <div className="flex min-w-0 flex-1 flex-col gap-2">
        <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1">
          <div className="min-w-0">
            <h2 className="text-base font-semibold break-words">
              <Link to={variantPath(line)} className="text-link underline-offset-2 hover:underline">
                {line.name}
              </Link>
            </h2>
            {line.options.length > 0 ? (
              <p className="text-sm" data-testid="cart-line-options">
                {line.options.map((option) => `${option.name}: ${option.value}`).join(' · ')}
              </p>
            ) : null}
            {line.categoryName ? (
              <p className="text-sm text-product-description">{line.categoryName}</p>
            ) : null}
            <p className="text-sm">
              <Money cents={line.unitPriceCents} /> cada
            </p>
          </div>
          <p className="font-semibold" data-testid="cart-line-total">
            <span className="sr-only">Total de {name}: </span>
            <Money cents={line.lineTotalCents} />
          </p>
        </div>

        <div className="flex flex-wrap items-center gap-2">
          <fetcher.Form
            method="post"
            action="/cart"
            onSubmit={() => quantity === 1 && onRemove(name)}
          >
            <Hidden intent="set" variantId={variantId} />
            <input type="hidden" name="quantity" value={quantity - 1} />
            <button
              type="submit"
              className={STEP_BUTTON}
              aria-label={`Diminuir quantidade de ${name}`}
            >
              <span aria-hidden="true">−</span>
            </button>
          </fetcher.Form>
          <label htmlFor={`${id}-quantity`} className="sr-only">
            Quantidade de {name}
          </label>
          <input
            id={`${id}-quantity`}
            form={quantityFormId}
            name="quantity"
            type="number"
            inputMode="numeric"
            min={0}
            max={maxQuantity}
            step={1}
            required
            value={text}
            onChange={(event) => {
              const { form, value } = event.target;
              setText(value);
              clearTimeout(typingTimer.current);
              typingTimer.current = setTimeout(() => applyTyped(form, value), TYPING_PAUSE_MS);
            }}
            onBlur={(event) => applyTyped(event.target.form, event.target.value)}
            className="field w-20 text-center"
          />
          <fetcher.Form
            method="post"
            action="/cart"
            onSubmit={(event) => {
              // Past the maximum the server would only cap it again; say so without a round trip.
              if (atMaximum) event.preventDefault();
            }}
          >
            <Hidden intent="set" variantId={variantId} />
            <input type="hidden" name="quantity" value={quantity + 1} />
            <button
              type="submit"
              className={STEP_BUTTON}
              aria-label={`Aumentar quantidade de ${name}`}
              aria-disabled={atMaximum}
            >
              <span aria-hidden="true">+</span>
            </button>
          </fetcher.Form>
          {/* The typed quantity's own form: its input sits between the − and + forms. */}
          <fetcher.Form
            id={quantityFormId}
            noValidate
            method="post"
            action="/cart"
            onSubmit={(event) => {
              event.preventDefault();
              applyTyped(event.currentTarget, text);
            }}
          >
            <Hidden intent="set" variantId={variantId} />
            {/* Without JavaScript a typed quantity needs a button; with it, it applies itself. */}
            <noscript>
              <button type="submit" className="btn btn-outline text-sm">
                Atualizar<span className="sr-only"> a quantidade de {name}</span>
              </button>
            </noscript>
          </fetcher.Form>
          <fetcher.Form method="post" action="/cart" onSubmit={() => onRemove(name)}>
            <Hidden intent="remove" variantId={variantId} />
            <button type="submit" className="btn text-sm text-link underline">
              Remover<span className="sr-only"> {name} do carrinho</span>
            </button>
          </fetcher.Form>
        </div>
        <p role="status" className="text-sm">
          {feedback || (atMaximum ? `Quantidade máxima disponível: ${maxQuantity}.` : '')}
        </p>
      </div>
    </li>
  );
}
