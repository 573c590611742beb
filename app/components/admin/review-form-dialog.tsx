import { useEffect, useId, useRef } from 'react';
import { useFetcher } from 'react-router';

import type { ProductOptions } from '~/modules/catalog';
import { RATING_CHOICES, reviewFormSchema } from '~/modules/reviews';

import { ADMIN_FORM } from './form-look';
import { FormField } from '~/components/ui/form';
import { FormDialog } from './form-dialog';

/**
 * 'Adicionar avaliação': the review's form (Produto, Nome do cliente, Avaliação, Comentário).
 * `products` holds the first products by name; typing in 'Buscar produto' asks the server for
 * the matching ones, so a big catalogue is never sent whole.
 */
export function ReviewFormDialog({ id, products }: { id: string; products: ProductOptions }) {
  return (
    <FormDialog
      schema={reviewFormSchema}
      title="Adicionar avaliação"
      openLabel="Adicionar avaliação"
      openClassName="admin-button-primary"
      submitLabel="Adicionar"
      hidden={{ intent: 'create', id }}
      resetOnClose={false}
      submitDisabled={products.total === 0}
    >
      {({ idPrefix, errors }) => (
        <>
          {products.total === 0 ? (
            <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
              Cadastre um produto antes de adicionar avaliações.
            </p>
          ) : null}
          <ProductPicker idPrefix={idPrefix} initial={products} error={errors.productId} />
          <FormField
            look={ADMIN_FORM}
            idPrefix={idPrefix}
            name="customerName"
            label="Nome do cliente"
            error={errors.customerName}
          >
            {(control) => (
              <input
                {...control}
                required
                maxLength={100}
                autoComplete="off"
                className="admin-input"
              />
            )}
          </FormField>
          <FormField
            look={ADMIN_FORM}
            idPrefix={idPrefix}
            name="rating"
            label="Avaliação"
            error={errors.rating}
          >
            {(control) => (
              <select {...control} defaultValue="5" className="admin-input">
                {RATING_CHOICES.map((choice) => (
                  <option key={choice.value} value={choice.value}>
                    {choice.label}
                  </option>
                ))}
              </select>
            )}
          </FormField>
          <FormField
            look={ADMIN_FORM}
            idPrefix={idPrefix}
            name="comment"
            label="Comentário (Opcional)"
            error={errors.comment}
          >
            {(control) => (
              <textarea {...control} rows={4} maxLength={2000} className="admin-input" />
            )}
          </FormField>
        </>
      )}
    </FormDialog>
  );
}

const SEARCH_DELAY_MS = 250;

/** 'Produto': a select of products, narrowed by a search box when the catalogue is big. */
function ProductPicker({
  idPrefix,
  initial,
  error,
}: {
  idPrefix: string;
  initial: ProductOptions;
  error?: string;
}) {
  const search = useFetcher<ProductOptions>();
  const searchId = useId();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const shown = search.data ?? initial;
  const more = shown.total - shown.options.length;
  return (
    <>
      {initial.total > initial.options.length ? (
        <div>
          <label htmlFor={searchId} className="admin-label">
            Buscar produto
          </label>
          <input
            id={searchId}
            type="search"
            autoComplete="off"
            maxLength={100}
            className="admin-input"
            onChange={(event) => {
              const q = event.currentTarget.value;
              clearTimeout(timer.current);
              timer.current = setTimeout(
                () => search.load(`/admin/products/options?q=${encodeURIComponent(q)}`),
                SEARCH_DELAY_MS,
              );
            }}
          />
        </div>
      ) : null}
      <FormField
        look={ADMIN_FORM}
        idPrefix={idPrefix}
        name="productId"
        label="Produto"
        hint={
          more > 0
            ? `Mostrando ${shown.options.length} de ${shown.total} produtos: busque pelo nome para ver os outros.`
            : undefined
        }
        error={error}
      >
        {(control) => (
          <select {...control} required defaultValue="" className="admin-input">
            <option value="">
              {shown.total === 0 && search.data
                ? 'Nenhum produto encontrado'
                : 'Selecione um produto'}
            </option>
            {shown.options.map((product) => (
              <option key={product.id} value={product.id}>
                {product.name}
              </option>
            ))}
          </select>
        )}
      </FormField>
    </>
  );
}
