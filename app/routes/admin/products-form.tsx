import { randomUUID } from 'node:crypto';

import { data, Link } from 'react-router';

import { ProductForm, type ProductFormData } from '~/components/admin/product-form';
import { PRODUCT_UPLOADS, saveProduct } from '~/flows/save-product.server';
import { formatDateTime } from '~/lib/date-format';
import { parseForm, refuseOtherMethods } from '~/lib/form.server';
import { formatReaisInput } from '~/lib/reais';
import { redirectWithToast, refuseForm, successWithToast, toast } from '~/lib/toast.server';
import { requireAdmin } from '~/modules/auth/index.server';
import {
  PRODUCT_FORM_REPEATABLE,
  PRODUCT_LIST_PATH,
  PRODUCT_MESSAGES,
  productFormSchema,
  productListReturnPath,
  VARIANT_MESSAGES,
  type ProductFormReply,
} from '~/modules/catalog/index.admin';
import { variantDrafts } from '~/modules/catalog/index.admin.server';
import { getProduct, listCategories, listRestockRequests } from '~/modules/catalog/index.server';

import type { Route } from './+types/products-form';

/** The list page (with its search and page) the form was opened from. */
function returnTo(request: Request): string {
  return productListReturnPath(new URL(request.url).searchParams.get('returnTo'));
}

/** `/admin/products/new` (a fresh form) and `/admin/products/:id` (the product's). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const categories = await listCategories(context.db);
  if (params.id === undefined) {
    return {
      isNew: true,
      productId: randomUUID(),
      product: null,
      categories,
      returnTo: returnTo(request),
    } satisfies ProductFormData;
  }
  const product = await getProduct(context.db, params.id);
  // Data, not a thrown response: the list's dialog loads this too and shows the message itself.
  if (!product) return data({ notFound: true as const }, 404);
  const [restock, settings, variants] = await Promise.all([
    listRestockRequests(context.db, product.id),
    context.settings.get(),
    variantDrafts(context.db, product.id),
  ]);
  return {
    isNew: false,
    productId: product.id,
    product: {
      name: product.name,
      description: product.description,
      priceCents: product.priceCents,
      stockQuantity: product.stockQuantity,
      compareAtPrice: product.options.length === 0 ? (variants[0]?.compareAtPrice ?? '') : '',
      categoryId: product.categoryId,
      imageUrls: product.imageUrls,
      options: product.options,
      variants,
      brand: product.brand,
      googleProductCategory: product.googleProductCategory,
      condition: product.condition,
    },
    categories,
    returnTo: returnTo(request),
    restock: {
      open: restock.open,
      unconfirmed: restock.unconfirmed,
      requests: restock.requests.map((item) => ({
        email: item.email,
        createdAt: formatDateTime(item.createdAt, settings.timezone),
      })),
    },
  } satisfies ProductFormData;
}

function failure(
  status: number,
  message: string,
  fieldErrors: Record<string, string>,
  values: Record<string, string>,
) {
  return refuseForm(
    PRODUCT_MESSAGES.saveError(message),
    { error: message, fieldErrors, values },
    status,
  );
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  await requireAdmin(context, request);
  const parsed = await parseForm(request, productFormSchema, {
    repeatable: PRODUCT_FORM_REPEATABLE,
    files: { folder: context.uploadFolder, ...PRODUCT_UPLOADS },
  });
  if (!parsed.ok) return failure(400, parsed.error, parsed.fieldErrors, parsed.values);
  const form = parsed.data;
  const editing = params.id !== undefined;
  const id = editing ? params.id!.toLowerCase() : form.id;
  const values = {
    name: form.name,
    description: form.description,
    priceCents: form.price,
    stockQuantity: form.stockQuantity,
    categoryId: form.categoryId,
    imageUrls: form.imageUrls,
    options: form.options,
    variants: form.variants,
    brand: form.brand,
    googleProductCategory: form.googleProductCategory,
    condition: form.condition,
  };
  const result = await saveProduct(context.db, {
    mode: editing ? 'update' : 'create',
    id,
    values,
    uploads: form.uploads,
  });
  if (!result.ok) {
    // What was typed comes back (files cannot be put back into a file input).
    const echo = {
      id: form.id,
      name: form.name,
      description: form.description,
      price: formatReaisInput(form.price),
      stockQuantity: String(form.stockQuantity),
      categoryId: form.categoryId,
      imageUrls: form.imageUrls.join('\n'),
      brand: form.brand,
      googleProductCategory: form.googleProductCategory,
      condition: form.condition,
    };
    switch (result.reason) {
      case 'bad-image':
        return failure(400, result.error, { uploads: result.error }, echo);
      case 'category-gone':
        return failure(
          409,
          PRODUCT_MESSAGES.categoryGone,
          { categoryId: PRODUCT_MESSAGES.categoryGone },
          echo,
        );
      case 'not-found':
        return failure(404, PRODUCT_MESSAGES.notFound, {}, echo);
      case 'form-reused':
        return failure(409, PRODUCT_MESSAGES.formReused, {}, echo);
      case 'sku-taken':
        return failure(
          409,
          VARIANT_MESSAGES.skuTaken,
          Object.fromEntries(
            result.rows.map((row) => [`variants.${row}.sku`, VARIANT_MESSAGES.skuTaken]),
          ),
          echo,
        );
    }
  }
  const message = editing ? PRODUCT_MESSAGES.updated : PRODUCT_MESSAGES.created;
  if (form.mode === 'dialog') {
    return successWithToast(request, message, { id });
  }
  return redirectWithToast(form.returnTo, toast('success', message));
}

export function meta({ loaderData }: Route.MetaArgs) {
  const title =
    loaderData && 'isNew' in loaderData && !loaderData.isNew
      ? 'Editar produto'
      : 'Adicionar produto';
  return [{ title: `${title} · Painel` }];
}

export default function ProductFormPage({ loaderData, actionData }: Route.ComponentProps) {
  if (!('productId' in loaderData)) {
    return (
      <div className="space-y-4">
        <h1 className="text-2xl font-bold">Produto não encontrado</h1>
        <p className="text-slate-700">{PRODUCT_MESSAGES.notFound}</p>
        <Link to={PRODUCT_LIST_PATH} className="admin-button-secondary">
          Voltar para Produtos
        </Link>
      </div>
    );
  }
  const reply = actionData as ProductFormReply | undefined;
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <Link to={loaderData.returnTo} className="text-sm font-medium text-blue-700 underline">
          ← Voltar para Produtos
        </Link>
        <h1 className="mt-2 text-2xl font-bold">
          {loaderData.isNew ? 'Adicionar produto' : 'Editar produto'}
        </h1>
      </div>
      <div className="admin-card p-5">
        <ProductForm
          data={loaderData}
          mode="page"
          reply={reply?.ok === false ? reply : undefined}
        />
      </div>
    </div>
  );
}
