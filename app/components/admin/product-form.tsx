import { useEffect, useRef, useState } from 'react';
import { Link, useFetcher } from 'react-router';

import { ADMIN_FORM } from './form-look';
import { ErrorSummary, fieldId, FormField, SubmitButton } from '~/components/ui/form';
import { formatReaisInput } from '~/lib/reais';
import type { RestockRequestSummary } from '~/modules/catalog';
import {
  IDENTIFIER_MAX_LENGTH,
  PRODUCT_CONDITION_LABELS,
  PRODUCT_CONDITIONS,
  PRODUCT_FORM_REPEATABLE,
  PRODUCT_LIMITS,
  productFormSchema,
  type ProductCondition,
  type ProductFormReply,
  type ProductOption,
  type VariantDraft,
} from '~/modules/catalog/index.admin';

import { ProductImagesField } from './product-images-field';
import { ProductVariants } from './product-variants';
import { RestockRequests } from './restock-requests';
import { useToastFrom } from './toaster';
import { useEachAnswer } from '~/lib/use-each-answer';
import { useFormCheck } from '~/lib/use-form-check';

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
    /** A product without options: its one variant's 'de' price, as typed. */
    compareAtPrice: string;
    categoryId: string | null;
    imageUrls: string[];
    options: ProductOption[];
    variants: VariantDraft[];
    brand: string;
    googleProductCategory: string;
    condition: ProductCondition;
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
    compareAtPrice: product.compareAtPrice,
    categoryId: product.categoryId ?? '',
    imageUrls: product.imageUrls.join('\n'),
    brand: product.brand,
    googleProductCategory: product.googleProductCategory,
    condition: product.condition,
    // A product without options: its one variant's codes.
    gtin: product.options.length === 0 ? (product.variants[0]?.gtin ?? '') : '',
    mpn: product.options.length === 0 ? (product.variants[0]?.mpn ?? '') : '',
  };
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

  // With options, each variant's stock and 'de' price are in the grid instead.
  const [hasOptions, setHasOptions] = useState((data.product?.options.length ?? 0) > 0);

  // After a refused submission, the first wrong field gets focus (a grid cell has no name).
  useEffect(() => {
    const first = Object.keys(errors)[0];
    if (!first) return;
    const field =
      form.current?.elements.namedItem(first) ?? document.getElementById(fieldId(prefix, first));
    if (field instanceof HTMLElement) field.focus();
  }, [errors, prefix]);

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    // A second click while the first is on its way sends nothing (the server would also
    // recognise the form's id, but the uploads would travel twice).
    if (busy) {
      event.preventDefault();
      return;
    }
    check(event);
  };

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
      {summary ? <ErrorSummary look={ADMIN_FORM} message={summary} /> : null}

      <FormField look={ADMIN_FORM} idPrefix={prefix} name="name" label="Nome" error={errors.name}>
        {(control) => (
          <input
            {...control}
            defaultValue={values.name}
            required
            maxLength={PRODUCT_LIMITS.name}
            className="admin-input"
          />
        )}
      </FormField>

      <FormField
        look={ADMIN_FORM}
        idPrefix={prefix}
        name="description"
        label="Descrição"
        error={errors.description}
      >
        {(control) => (
          <textarea
            {...control}
            defaultValue={values.description}
            required
            rows={4}
            maxLength={PRODUCT_LIMITS.description}
            className="admin-input"
          />
        )}
      </FormField>

      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          look={ADMIN_FORM}
          idPrefix={prefix}
          name="price"
          label="Preço (R$)"
          error={errors.price}
        >
          {(control) => (
            <input
              {...control}
              defaultValue={values.price}
              required
              inputMode="decimal"
              autoComplete="off"
              placeholder="0,00"
              className="admin-input"
            />
          )}
        </FormField>
        {hasOptions ? null : (
          <FormField
            look={ADMIN_FORM}
            idPrefix={prefix}
            name="compareAtPrice"
            label="Preço de (R$)"
            hint="Opcional: o preço riscado de 'De R$ 199 por R$ 149'."
            error={errors.compareAtPrice}
          >
            {(control) => (
              <input
                {...control}
                defaultValue={values.compareAtPrice}
                inputMode="decimal"
                autoComplete="off"
                placeholder="0,00"
                className="admin-input"
              />
            )}
          </FormField>
        )}
        {hasOptions ? null : (
          <FormField
            look={ADMIN_FORM}
            idPrefix={prefix}
            name="stockQuantity"
            label="Quantidade em estoque"
            error={errors.stockQuantity}
          >
            {(control) => (
              <input
                {...control}
                defaultValue={values.stockQuantity}
                required
                type="number"
                min={0}
                max={PRODUCT_LIMITS.stock}
                step={1}
                inputMode="numeric"
                className="admin-input"
              />
            )}
          </FormField>
        )}
      </div>
      {data.restock ? <RestockRequests summary={data.restock} /> : null}

      <FormField
        look={ADMIN_FORM}
        idPrefix={prefix}
        name="categoryId"
        label="Categoria"
        hint={
          noCategories ? (
            <>
              Nenhuma categoria cadastrada.{' '}
              <Link to="/admin/categories" className="font-medium text-blue-700 underline">
                Cadastre uma categoria
              </Link>{' '}
              antes de adicionar produtos.
            </>
          ) : undefined
        }
        error={errors.categoryId}
      >
        {(control) => (
          <select
            {...control}
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
        )}
      </FormField>

      <ProductImagesField
        idPrefix={prefix}
        initialUrls={values.imageUrls ?? ''}
        initialNewUrls={values.newImageUrls ?? ''}
        urlsError={errors.imageUrls}
        newUrlsError={errors.newImageUrls}
        uploadsError={errors.uploads}
      />

      <ProductVariants
        idPrefix={prefix}
        initialOptions={data.product?.options ?? []}
        initialVariants={data.product?.variants ?? []}
        images={data.product?.imageUrls ?? []}
        errors={errors}
        onOptionsChange={(count) => setHasOptions(count > 0)}
      />

      <fieldset className="grid gap-4 border-t border-slate-200 pt-4 sm:grid-cols-2">
        <legend className="pt-4 text-sm font-semibold text-slate-900">
          Google Shopping e Meta
        </legend>
        <FormField
          look={ADMIN_FORM}
          idPrefix={prefix}
          name="brand"
          label="Marca"
          hint="Em branco: o nome da loja."
          error={errors.brand}
        >
          {(control) => (
            <input
              {...control}
              defaultValue={values.brand}
              maxLength={IDENTIFIER_MAX_LENGTH.brand}
              autoComplete="off"
              className="admin-input"
            />
          )}
        </FormField>
        <FormField
          look={ADMIN_FORM}
          idPrefix={prefix}
          name="condition"
          label="Condição"
          error={errors.condition}
        >
          {(control) => (
            <select {...control} defaultValue={values.condition ?? 'new'} className="admin-input">
              {PRODUCT_CONDITIONS.map((condition) => (
                <option key={condition} value={condition}>
                  {PRODUCT_CONDITION_LABELS[condition]}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField
          look={ADMIN_FORM}
          idPrefix={prefix}
          name="googleProductCategory"
          label="Categoria do Google"
          hint="O número ou o caminho da categoria na lista do Google, como 2271 ou Vestuário e acessórios > Roupas. Opcional."
          error={errors.googleProductCategory}
        >
          {(control) => (
            <input
              {...control}
              defaultValue={values.googleProductCategory}
              maxLength={IDENTIFIER_MAX_LENGTH.googleProductCategory}
              autoComplete="off"
              className="admin-input"
            />
          )}
        </FormField>
        {hasOptions ? null : (
          <FormField
            look={ADMIN_FORM}
            idPrefix={prefix}
            name="gtin"
            label="GTIN (código de barras)"
            hint="EAN de 8, 12, 13 ou 14 dígitos. Com variantes, cada uma tem o seu na tabela."
            error={errors.gtin}
          >
            {(control) => (
              <input
                {...control}
                defaultValue={values.gtin}
                inputMode="numeric"
                autoComplete="off"
                className="admin-input"
              />
            )}
          </FormField>
        )}
        {hasOptions ? null : (
          <FormField
            look={ADMIN_FORM}
            idPrefix={prefix}
            name="mpn"
            label="MPN (código do fabricante)"
            hint="Para produtos sem código de barras."
            error={errors.mpn}
          >
            {(control) => (
              <input
                {...control}
                defaultValue={values.mpn}
                maxLength={IDENTIFIER_MAX_LENGTH.mpn}
                autoComplete="off"
                className="admin-input"
              />
            )}
          </FormField>
        )}
      </fieldset>

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
        <SubmitButton busy={busy} busyLabel="Salvando..." className="admin-button-primary">
          Salvar produto
        </SubmitButton>
      </div>
    </fetcher.Form>
  );
}
