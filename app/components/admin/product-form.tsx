import { useEffect, useRef } from 'react';
import { Link, useFetcher } from 'react-router';

import { formatReaisInput } from '~/lib/reais';
import type { RestockRequestSummary } from '~/modules/catalog';
import {
  PRODUCT_FORM_REPEATABLE,
  PRODUCT_LIMITS,
  productFormSchema,
  type ProductFormReply,
} from '~/modules/catalog/index.admin';

import { ProductImagesField } from './product-images-field';
import { RestockRequests } from './restock-requests';
import { useToastFrom } from './toaster';
import { useEachAnswer } from '~/lib/use-each-answer';
import { useFormCheck } from './use-form-check';

/** What the form starts from: the product being edited, or nothing for a new one. */
export interface ProductFormData {
  isNew: boolean;
  /** The product's id; for a new product, made when the form was shown (see createProduct). */
  productId: string;
  product: {
    name: string;
    description: string;
    priceCents: number;
    stockQuantity: number;
    categoryId: string | null;
    imageUrls: string[];
  } | null;
  categories: { id: string; name: string }[];
  returnTo: string;
  /** Shoppers waiting for this product to be back in stock (an existing product only). */
  restock?: RestockRequestSummary;
}

function initialValues(data: ProductFormData): Record<string, string> {
  const product = data.product;
  if (!product) return {};
  return {
    name: product.name,
    description: product.description,
    price: formatReaisInput(product.priceCents),
    stockQuantity: String(product.stockQuantity),
    categoryId: product.categoryId ?? '',
    imageUrls: product.imageUrls.join('\n'),
  };
}

function FieldError({ id, error }: { id: string; error?: string }) {
  return error ? (
    <p id={id} className="mt-1 text-sm text-red-700">
      {error}
    </p>
  ) : null;
}

/**
 * The product form, the same on its own page (phones, and without JavaScript) and in the list's
 * dialog (desktop). It posts multipart (fields and image files in one submit) through a fetcher;
 * the zod schema the server uses checks it first, so mistakes show at once beside their fields.
 * On its page a saved form goes back to the list; in the dialog `onSaved` closes it.
 */
export function ProductForm({
  data,
  mode,
  reply: pageReply,
  onSaved,
  onCancel,
}: {
  data: ProductFormData;
  mode: 'page' | 'dialog';
  /** The action's answer when the page was posted without JavaScript. */
  reply?: ProductFormReply;
  onSaved?: () => void;
  onCancel?: () => void;
}) {
  const fetcher = useFetcher<ProductFormReply>();
  // Only this form's own answers: a refused method (405) answers in another shape.
  const answer: unknown = fetcher.data ?? pageReply;
  const reply =
    answer && typeof answer === 'object' && 'toast' in answer
      ? (answer as ProductFormReply)
      : undefined;
  useToastFrom(fetcher.data);
  const busy = fetcher.state !== 'idle';
  const form = useRef<HTMLFormElement>(null);
  const { errors: clientErrors, check } = useFormCheck(productFormSchema, {
    repeatable: PRODUCT_FORM_REPEATABLE,
  });
  const serverErrors = reply && !reply.ok ? reply.fieldErrors : {};
  const errors = clientErrors ?? serverErrors;
  const summary = clientErrors
    ? 'Confira os campos destacados.'
    : reply && !reply.ok
      ? reply.toast.message
      : undefined;
  const values =
    reply && !reply.ok ? { ...initialValues(data), ...reply.values } : initialValues(data);
  const prefix = `product-${mode}`;
  const action = data.isNew ? '/admin/products/new' : `/admin/products/${data.productId}`;

  useEachAnswer(fetcher.state === 'idle' ? fetcher.data : undefined, (answer) => {
    if (answer.ok) onSaved?.();
  });

  // After a refused submission, the first wrong field gets focus.
  useEffect(() => {
    const first = Object.keys(errors)[0];
    if (!first) return;
    const field = form.current?.elements.namedItem(first);
    if (field instanceof HTMLElement) field.focus();
  }, [errors]);

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    // A second click while the first is on its way sends nothing (the server would also
    // recognise the form's id, but the uploads would travel twice).
    if (busy) {
      event.preventDefault();
      return;
    }
    check(event);
  };

  const field = (name: string) => ({
    id: `${prefix}-${name}`,
    name,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${prefix}-${name}-error` : undefined,
  });
  const noCategories = data.categories.length === 0;

  return (
    <fetcher.Form
      ref={form}
      method="post"
      action={action}
      encType="multipart/form-data"
      noValidate
      onSubmit={onSubmit}
      className="space-y-5"
    >
      <input type="hidden" name="id" value={data.productId} />
      <input type="hidden" name="mode" value={mode} />
      <input type="hidden" name="returnTo" value={data.returnTo} />
      {summary ? (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {summary}
        </p>
      ) : null}

      <div>
        <label htmlFor={`${prefix}-name`} className="admin-label">
          Nome
        </label>
        <input
          {...field('name')}
          defaultValue={values.name}
          required
          maxLength={PRODUCT_LIMITS.name}
          className="admin-input"
        />
        <FieldError id={`${prefix}-name-error`} error={errors.name} />
      </div>

      <div>
        <label htmlFor={`${prefix}-description`} className="admin-label">
          Descrição
        </label>
        <textarea
          {...field('description')}
          defaultValue={values.description}
          required
          rows={4}
          maxLength={PRODUCT_LIMITS.description}
          className="admin-input"
        />
        <FieldError id={`${prefix}-description-error`} error={errors.description} />
      </div>

      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor={`${prefix}-price`} className="admin-label">
            Preço (R$)
          </label>
          <input
            {...field('price')}
            defaultValue={values.price}
            required
            inputMode="decimal"
            autoComplete="off"
            placeholder="0,00"
            className="admin-input"
          />
          <FieldError id={`${prefix}-price-error`} error={errors.price} />
        </div>
        <div>
          <label htmlFor={`${prefix}-stockQuantity`} className="admin-label">
            Quantidade em estoque
          </label>
          <input
            {...field('stockQuantity')}
            defaultValue={values.stockQuantity}
            required
            type="number"
            min={0}
            max={PRODUCT_LIMITS.stock}
            step={1}
            inputMode="numeric"
            className="admin-input"
          />
          <FieldError id={`${prefix}-stockQuantity-error`} error={errors.stockQuantity} />
        </div>
      </div>
      {data.restock ? <RestockRequests summary={data.restock} /> : null}

      <div>
        <label htmlFor={`${prefix}-categoryId`} className="admin-label">
          Categoria
        </label>
        <select
          {...field('categoryId')}
          defaultValue={values.categoryId ?? ''}
          required
          className="admin-input"
        >
          <option value="">Selecione</option>
          {data.categories.map((category) => (
            <option key={category.id} value={category.id}>
              {category.name}
            </option>
          ))}
        </select>
        <FieldError id={`${prefix}-categoryId-error`} error={errors.categoryId} />
        {noCategories ? (
          <p className="mt-1 text-sm text-slate-700">
            Nenhuma categoria cadastrada.{' '}
            <Link to="/admin/categories" className="font-medium text-blue-700 underline">
              Cadastre uma categoria
            </Link>{' '}
            antes de adicionar produtos.
          </p>
        ) : null}
      </div>

      <ProductImagesField
        idPrefix={prefix}
        initialUrls={values.imageUrls ?? ''}
        urlsError={errors.imageUrls}
        uploadsError={errors.uploads}
      />

      <div className="flex flex-wrap justify-end gap-2 border-t border-slate-200 pt-4">
        {mode === 'dialog' ? (
          <button type="button" onClick={onCancel} className="admin-button-secondary">
            Cancelar
          </button>
        ) : (
          <Link to={data.returnTo} className="admin-button-secondary">
            Cancelar
          </Link>
        )}
        <button type="submit" className="admin-button-primary" disabled={busy}>
          {busy ? 'Salvando...' : 'Salvar produto'}
        </button>
      </div>
    </fetcher.Form>
  );
}
