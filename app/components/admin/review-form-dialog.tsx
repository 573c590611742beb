import type { ProductOptions } from '~/modules/catalog';
import { RATING_CHOICES, reviewFormSchema } from '~/modules/reviews';

import { ADMIN_FORM } from './form-look';
import { FormField } from '~/components/ui/form';
import { FormDialog } from './form-dialog';
import { ProductPicker } from './product-picker';

const NONE: readonly { id: string; name: string }[] = [];

/**
 * 'Adicionar avaliação': the review's form (Produto, Nome do cliente, Avaliação, Comentário).
 * `products` holds the first products by name; the picker asks the server for the others.
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
          <ProductPicker
            idPrefix={idPrefix}
            name="productId"
            legend="Produto"
            multiple={false}
            initial={products}
            chosen={NONE}
            error={errors.productId}
          />
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
