import { useEffect, useRef, useState } from 'react';
import { useFetcher } from 'react-router';

import { FormField } from '~/components/ui/form';
import { countOf } from '~/lib/plural';
import type { ProductOptions } from '~/modules/catalog';

import { ADMIN_FORM } from './form-look';

type Choice = { id: string; name: string };

const SEARCH_DELAY_MS = 250;

/**
 * Choosing products in an admin form however big the catalogue: a labelled 'Buscar produto' box
 * asks the server (`/admin/products/options`, a few dozen at most) as the merchant types, and the
 * answers are plain checkboxes (`multiple`) or radio buttons sending `name`, so the form works
 * before JavaScript with the first products by name and the ones already chosen, and Tab, Space
 * and the arrows work as anywhere else. What was chosen stays listed first whatever is searched;
 * the server checks every id sent. The form's reset (closing the dialog) puts the first choice
 * back.
 */
export function ProductPicker({
  idPrefix,
  name,
  legend,
  hint,
  multiple,
  initial,
  chosen: initiallyChosen,
  error,
}: {
  idPrefix: string;
  name: string;
  legend: string;
  hint?: string;
  multiple: boolean;
  initial: ProductOptions;
  chosen: readonly Choice[];
  error?: string;
}) {
  const search = useFetcher<ProductOptions>();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const fieldset = useRef<HTMLFieldSetElement>(null);
  const [chosen, setChosen] = useState<readonly Choice[]>(initiallyChosen);
  const [query, setQuery] = useState('');
  // A new list after a reset, so every box is drawn again from what is chosen.
  const [generation, setGeneration] = useState(0);
  const answer = query && search.data ? search.data : initial;
  const [listed, setListed] = useState<readonly Choice[]>(() =>
    withChosen(initiallyChosen, initial),
  );
  // The list is put in order when an answer comes, not when a box is ticked: a ticked box stays
  // where it is, under the keyboard's focus.
  const [listedAnswer, setListedAnswer] = useState(answer);
  if (answer !== listedAnswer) {
    setListedAnswer(answer);
    setListed(withChosen(chosen, answer));
  }

  useEffect(() => {
    const form = fieldset.current?.form;
    const reset = () => {
      clearTimeout(timer.current);
      setChosen(initiallyChosen);
      setQuery('');
      setListed(withChosen(initiallyChosen, initial));
      setGeneration((count) => count + 1);
    };
    form?.addEventListener('reset', reset);
    return () => {
      form?.removeEventListener('reset', reset);
      clearTimeout(timer.current);
    };
  }, [initiallyChosen, initial]);

  const ask = (q: string) => {
    clearTimeout(timer.current);
    setQuery(q);
    if (q) search.load(`/admin/products/options?q=${encodeURIComponent(q)}`);
  };

  const errorId = `${idPrefix}-${name}-error`;
  const hintId = `${idPrefix}-${name}-hint`;
  const statusId = `${idPrefix}-${name}-status`;
  const searching = query !== '' && search.state === 'loading';
  const more = answer.total - answer.options.length;
  const status = searching
    ? 'Buscando…'
    : query && answer.total === 0
      ? 'Nenhum produto encontrado.'
      : more > 0
        ? `Mostrando ${answer.options.length} de ${countOf(answer.total, 'produto', 'produtos')}: ${
            query ? 'refine a busca' : 'busque pelo nome'
          } para ver os outros.`
        : query
          ? `${countOf(answer.total, 'produto encontrado', 'produtos encontrados')}.`
          : '';

  return (
    <fieldset
      ref={fieldset}
      aria-describedby={
        [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined
      }
      className="space-y-2"
    >
      <legend className="admin-label">{legend}</legend>
      {hint ? (
        <p id={hintId} className={ADMIN_FORM.hintAbove}>
          {hint}
        </p>
      ) : null}
      {initial.total === 0 ? (
        <p className="text-sm text-slate-600">Nenhum produto cadastrado.</p>
      ) : (
        <>
          <FormField
            look={ADMIN_FORM}
            idPrefix={idPrefix}
            name={`${name}-search`}
            label="Buscar produto"
            className=""
          >
            {(control) => (
              <input
                id={control.id}
                type="search"
                autoComplete="off"
                maxLength={100}
                aria-describedby={statusId}
                className="admin-input"
                onChange={(event) => {
                  const q = event.currentTarget.value.trim();
                  clearTimeout(timer.current);
                  timer.current = setTimeout(() => ask(q), SEARCH_DELAY_MS);
                }}
                // Enter searches at once instead of sending the whole form.
                onKeyDown={(event) => {
                  if (event.key !== 'Enter') return;
                  event.preventDefault();
                  ask(event.currentTarget.value.trim());
                }}
              />
            )}
          </FormField>
          <p id={statusId} role="status" className={ADMIN_FORM.hintAbove}>
            {status}
          </p>
          {listed.length > 0 ? (
            <ul
              key={generation}
              className="max-h-56 space-y-1 overflow-y-auto rounded-md border border-slate-300 p-2"
            >
              {listed.map((option) => {
                const id = `${idPrefix}-${name}-${option.id}`;
                return (
                  <li key={option.id} className="flex items-start gap-2">
                    <input
                      id={id}
                      type={multiple ? 'checkbox' : 'radio'}
                      name={name}
                      value={option.id}
                      required={!multiple}
                      defaultChecked={chosen.some((choice) => choice.id === option.id)}
                      aria-invalid={error ? true : undefined}
                      onChange={(event) => {
                        const checked = event.currentTarget.checked;
                        setChosen((current) => {
                          const others = multiple
                            ? current.filter((choice) => choice.id !== option.id)
                            : [];
                          return checked ? [...others, option] : others;
                        });
                      }}
                      className="mt-1 h-4 w-4 shrink-0"
                    />
                    <label htmlFor={id} className="text-sm break-words text-slate-800">
                      {option.name}
                    </label>
                  </li>
                );
              })}
            </ul>
          ) : null}
        </>
      )}
      {error ? (
        <p id={errorId} className={ADMIN_FORM.error}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** The chosen products first, then the answer's others, in its order. */
function withChosen(chosen: readonly Choice[], answer: ProductOptions): Choice[] {
  return [...chosen, ...answer.options.filter((option) => !chosen.some((c) => c.id === option.id))];
}
