import { useId } from 'react';
import { useFetcher } from 'react-router';

import { FormField } from '~/components/ui/form';
import { productCountSentence } from '~/modules/catalog/index.admin';
import { countOf } from '~/lib/plural';

import { CategoryFormDialog } from './category-form-dialog';
import { ConfirmDialog } from './confirm-dialog';
import { ADMIN_FORM } from './form-look';
import { useToastFrom } from './toaster';

export interface CategoryCardData {
  id: string;
  name: string;
  description: string | null;
  featured: boolean;
  productCount: number;
}

function productCountText(count: number): string {
  if (count === 0) return 'Nenhum produto';
  return countOf(count, 'produto', 'produtos');
}

/** One category in the admin's grid: what it is, its 'Selecionada' switch, edit and delete. */
export function CategoryCard({
  category,
  otherCategories,
}: {
  category: CategoryCardData;
  otherCategories: { id: string; name: string }[];
}) {
  return (
    <article
      className="admin-card flex w-full flex-col gap-3"
      aria-labelledby={`cat-${category.id}`}
    >
      <div>
        <h2 id={`cat-${category.id}`} className="text-lg font-semibold break-words">
          {category.name}
        </h2>
        <p className="mt-1 text-sm break-words text-slate-700">
          {category.description || <span className="text-slate-600 italic">Sem descrição</span>}
        </p>
        <p className="mt-2 text-sm font-medium text-slate-800">
          {productCountText(category.productCount)}
        </p>
      </div>
      <FeaturedSwitch id={category.id} name={category.name} featured={category.featured} />
      <div className="mt-auto flex flex-wrap gap-2 border-t border-slate-200 pt-3">
        <CategoryFormDialog
          mode="edit"
          id={category.id}
          name={category.name}
          description={category.description}
        />
        <ConfirmDialog
          title="Excluir categoria"
          message={
            <DeleteQuestion
              name={category.name}
              productCount={category.productCount}
              otherCategories={otherCategories}
            />
          }
          confirmLabel="Excluir"
          busyLabel="Excluindo..."
          triggerLabel={`Excluir categoria ${category.name}`}
          fields={{ intent: 'delete', id: category.id }}
        >
          Excluir
        </ConfirmDialog>
      </div>
    </article>
  );
}

/**
 * The 'Selecionada' switch, saved at once. It shows the state asked for while the server saves
 * it, and the saved state again if the server refuses.
 */
function FeaturedSwitch({ id, name, featured }: { id: string; name: string; featured: boolean }) {
  const fetcher = useFetcher();
  useToastFrom(fetcher.data);
  const pending = fetcher.formData?.get('featured');
  const on = pending ? pending === 'true' : featured;
  const busy = fetcher.state !== 'idle';
  const labelId = useId();
  return (
    <fetcher.Form method="post" className="flex items-center gap-3">
      <input type="hidden" name="intent" value="feature" />
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="featured" value={String(!on)} />
      <button
        type="submit"
        role="switch"
        aria-checked={on}
        aria-labelledby={labelId}
        aria-describedby={`${labelId}-hint`}
        disabled={busy}
        className={`relative inline-flex h-7 w-12 shrink-0 items-center rounded-full border-2 transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 disabled:opacity-70 ${
          on ? 'border-blue-700 bg-blue-700' : 'border-slate-500 bg-slate-200'
        }`}
      >
        <span
          aria-hidden="true"
          className={`inline-block h-5 w-5 rounded-full bg-white shadow transition-transform ${
            on ? 'translate-x-5' : 'translate-x-0.5'
          }`}
        />
      </button>
      <span className="text-sm">
        <span id={labelId} className="font-medium text-slate-900">
          Selecionada<span className="sr-only">: {name}</span>
        </span>
        <span id={`${labelId}-hint`} className="block text-xs text-slate-600">
          {busy
            ? 'Atualizando...'
            : on
              ? 'Aparece nos filtros da página inicial'
              : 'Fora dos filtros da página inicial'}
        </span>
      </span>
    </fetcher.Form>
  );
}

/**
 * The delete question. A category with products says how many and asks where they go: another
 * category, or none. The server refuses a delete without that choice.
 */
function DeleteQuestion({
  name,
  productCount,
  otherCategories,
}: {
  name: string;
  productCount: number;
  otherCategories: { id: string; name: string }[];
}) {
  const id = useId();
  return (
    <>
      <p>
        Tem certeza que deseja excluir esta categoria?{' '}
        <strong className="break-words">{name}</strong>
      </p>
      {productCount > 0 ? (
        <fieldset className="mt-3 space-y-3 rounded-md border border-amber-300 bg-amber-50 p-3">
          <legend className="px-1 font-semibold text-slate-900">
            {productCountSentence(productCount)} O que fazer com os produtos?
          </legend>
          {otherCategories.length > 0 ? (
            <div className="space-y-2">
              <label className="flex items-center gap-2">
                <input
                  type="radio"
                  name="products"
                  value="move"
                  required
                  id={`${id}-move`}
                  className="h-4 w-4"
                />
                Mover para outra categoria
              </label>
              <FormField
                look={ADMIN_FORM}
                idPrefix={id}
                name="targetId"
                label="Categoria de destino"
                className="pl-6"
              >
                {(control) => (
                  <select
                    {...control}
                    defaultValue=""
                    className="admin-input"
                    onChange={() => {
                      const move = document.getElementById(`${id}-move`) as HTMLInputElement | null;
                      if (move) move.checked = true;
                    }}
                  >
                    <option value="">Selecione a categoria</option>
                    {otherCategories.map((category) => (
                      <option key={category.id} value={category.id}>
                        {category.name}
                      </option>
                    ))}
                  </select>
                )}
              </FormField>
            </div>
          ) : null}
          <label className="flex items-center gap-2">
            <input type="radio" name="products" value="detach" required className="h-4 w-4" />
            Deixar os produtos sem categoria
          </label>
        </fieldset>
      ) : null}
    </>
  );
}
