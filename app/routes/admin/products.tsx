import { Form, Link, useNavigation } from 'react-router';

import { useProductDialog } from '~/components/admin/product-dialog';
import { ProductImport } from '~/components/admin/product-import';
import {
  type AdminProductRow,
  productCountText,
  productFormHref,
  ProductList,
} from '~/components/admin/product-list';
import { ToastFallback } from '~/components/admin/toaster';
import { runProductListAction } from '~/flows/admin-products.server';
import { parseForm, refuseOtherMethods } from '~/lib/form.server';
import { redirectFormerPage } from '~/lib/pagination';
import type { Toast } from '~/lib/toast';
import { refuseForm, successWithToast } from '~/lib/toast.server';
import { requireAdmin } from '~/modules/auth/index.server';
import {
  adminProductListPath,
  parseAdminProductParams,
  PRODUCT_CSV_LIMITS,
  PRODUCT_CSV_MESSAGES,
  PRODUCT_MESSAGES,
  type ProductImportResult,
} from '~/modules/catalog/index.admin';
import {
  listAdminProducts,
  productListActionSchema,
  variantStock,
} from '~/modules/catalog/index.admin.server';

import type { Route } from './+types/products';

export async function loader({ request, context }: Route.LoaderArgs) {
  redirectFormerPage(request);
  await requireAdmin(context, request);
  const params = parseAdminProductParams(new URL(request.url).searchParams);
  const page = await listAdminProducts(context.db, params);
  const stock = await variantStock(
    context.db,
    page.products.map((product) => product.id),
  );
  return {
    q: params.q,
    page: page.page,
    pageCount: page.pageCount,
    total: page.total,
    products: page.products.map((product): AdminProductRow => ({
      id: product.id,
      name: product.name,
      category: product.category?.name ?? null,
      priceCents: product.priceCents,
      stockQuantity: product.stockQuantity,
      variants: stock.get(product.id)?.variants ?? 1,
      lowVariants: stock.get(product.id)?.low ?? 0,
      image: product.imageUrls[0] ?? null,
    })),
  };
}

export type ListReply = {
  toast: Toast;
  import?: ProductImportResult;
};

export async function action({ request, context }: Route.ActionArgs) {
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  await requireAdmin(context, request);
  const parsed = await parseForm(request, productListActionSchema, {
    files: { folder: context.uploadFolder, maxFileBytes: PRODUCT_CSV_LIMITS.bytes, maxFiles: 1 },
  });
  if (!parsed.ok) {
    const message =
      parsed.values.intent === 'delete'
        ? PRODUCT_MESSAGES.deleteError(parsed.error)
        : PRODUCT_CSV_MESSAGES.importError(parsed.error);
    return refuseForm(message, parsed);
  }
  const done = await runProductListAction(context.db, parsed.data);
  const report: { import?: ProductImportResult } = done.import ? { import: done.import } : {};
  return done.ok
    ? successWithToast(request, done.message, report)
    : refuseForm(done.message, report, done.status);
}

export function meta() {
  return [{ title: 'Produtos · Painel' }];
}

export default function AdminProducts({ loaderData, actionData }: Route.ComponentProps) {
  const { products, q, page, pageCount, total } = loaderData;
  const productDialog = useProductDialog();
  const navigation = useNavigation();
  const searching =
    navigation.state === 'loading' && navigation.location.pathname === '/admin/products';
  const reply = actionData && 'toast' in actionData ? (actionData as ListReply) : undefined;

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">Produtos</h1>
          <p className="mt-1 text-sm text-slate-600">{productCountText(total, q)}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <a href="/admin/products/export.csv" download className="admin-button-secondary">
            Exportar CSV
          </a>
          <Link
            to={productFormHref(null, adminProductListPath({ q, page }))}
            onClick={(event) => productDialog.onLinkClick(event, true)}
            className="admin-button-primary"
          >
            Adicionar produto
          </Link>
        </div>
      </div>

      <ToastFallback toast={reply && !reply.import ? reply.toast : undefined} />

      <Form method="get" role="search" className="flex gap-2" aria-label="Buscar produtos">
        <label htmlFor="product-search" className="sr-only">
          Buscar produtos
        </label>
        <input
          id="product-search"
          type="search"
          name="q"
          defaultValue={q}
          key={q}
          placeholder="Buscar produtos..."
          maxLength={100}
          className="admin-input min-w-0 flex-1"
        />
        <button type="submit" className="admin-button-secondary" disabled={searching}>
          {searching ? 'Buscando...' : 'Buscar'}
        </button>
      </Form>

      <ProductImport reply={reply} />

      <ProductList
        products={products}
        q={q}
        page={page}
        pageCount={pageCount}
        onFormLinkClick={productDialog.onLinkClick}
      />
      {productDialog.element}
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <div role="alert" className="admin-card space-y-3">
      <h1 className="text-2xl font-bold">Produtos</h1>
      <p className="text-red-800">
        {PRODUCT_MESSAGES.loadError('verifique a conexão com o banco de dados e tente novamente.')}
      </p>
      <a href="/admin/products" className="admin-button-secondary">
        Tentar novamente
      </a>
    </div>
  );
}
