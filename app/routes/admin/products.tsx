import { Form, Link, useNavigation } from 'react-router';

import { AdminTable } from '~/components/admin/admin-table';
import { ConfirmDialog } from '~/components/admin/confirm-dialog';
import { useProductDialog } from '~/components/admin/product-dialog';
import { ProductImport } from '~/components/admin/product-import';
import { ProductThumb, StockBadge } from '~/components/admin/product-list-parts';
import { ToastFallback } from '~/components/admin/toaster';
import { Pagination } from '~/components/ui/pagination';
import { importProducts } from '~/flows/import-products.server';
import { parseForm, refuseOtherMethods } from '~/lib/form.server';
import { formatCents } from '~/lib/money';
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
  deleteProduct,
  listAdminProducts,
  productListActionSchema,
} from '~/modules/catalog/index.admin.server';

import type { Route } from './+types/products';

export async function loader({ request, context }: Route.LoaderArgs) {
  redirectFormerPage(request);
  await requireAdmin(context, request);
  const params = parseAdminProductParams(new URL(request.url).searchParams);
  const page = await listAdminProducts(context.db, params);
  return {
    q: params.q,
    page: page.page,
    pageCount: page.pageCount,
    total: page.total,
    products: page.products.map((product) => ({
      id: product.id,
      name: product.name,
      category: product.category?.name ?? null,
      priceCents: product.priceCents,
      stockQuantity: product.stockQuantity,
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
  const form = parsed.data;
  if (form.intent === 'delete') {
    const deleted = await deleteProduct(context.db, form.id);
    return deleted
      ? successWithToast(request, PRODUCT_MESSAGES.deleted)
      : refuseForm(PRODUCT_MESSAGES.deleteError('produto não encontrado.'), {}, 404);
  }
  const result = await importProducts(context.db, new Uint8Array(await form.file.arrayBuffer()));
  if (!result.ok) {
    return refuseForm(PRODUCT_CSV_MESSAGES.importError(result.error), { import: result });
  }
  return successWithToast(request, PRODUCT_CSV_MESSAGES.imported(result.created + result.updated), {
    import: result,
  });
}

export function meta() {
  return [{ title: 'Produtos · Painel' }];
}

function countText(total: number, q: string): string {
  const products = total === 1 ? '1 produto' : `${total.toLocaleString('pt-BR')} produtos`;
  if (!q) return products === '1 produto' ? '1 produto cadastrado' : `${products} cadastrados`;
  return `${products} ${total === 1 ? 'encontrado' : 'encontrados'} para "${q}"`;
}

export default function AdminProducts({ loaderData, actionData }: Route.ComponentProps) {
  const { products, q, page, pageCount, total } = loaderData;
  const listPath = adminProductListPath({ q, page });
  const productDialog = useProductDialog();
  const navigation = useNavigation();
  const searching =
    navigation.state === 'loading' && navigation.location.pathname === '/admin/products';
  const reply = actionData && 'toast' in actionData ? (actionData as ListReply) : undefined;
  const formHref = (id: string | null) =>
    `/admin/products/${id ?? 'new'}${listPath === '/admin/products' ? '' : `?returnTo=${encodeURIComponent(listPath)}`}`;
  const editLink = (product: (typeof products)[number], className: string) => (
    <Link
      to={formHref(product.id)}
      onClick={(event) => productDialog.onLinkClick(event, false)}
      className={className}
    >
      Editar<span className="sr-only"> {product.name}</span>
    </Link>
  );
  const deleteButton = (product: (typeof products)[number]) => (
    <ConfirmDialog
      title="Excluir produto"
      message={
        <>
          <p>{PRODUCT_MESSAGES.confirmDelete}</p>
          <p className="mt-2 font-semibold break-words">{product.name}</p>
          <p className="mt-2">Os pedidos já feitos continuam mostrando o produto.</p>
        </>
      }
      confirmLabel="Excluir"
      busyLabel="Excluindo..."
      triggerLabel={`Excluir ${product.name}`}
      triggerClassName="admin-button-danger px-3"
      fields={{ intent: 'delete', id: product.id }}
    >
      Excluir
    </ConfirmDialog>
  );

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">Produtos</h1>
          <p className="mt-1 text-sm text-slate-600">{countText(total, q)}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <a href="/admin/products/export.csv" download className="admin-button-secondary">
            Exportar CSV
          </a>
          <Link
            to={formHref(null)}
            onClick={(event) => productDialog.onLinkClick(event, true)}
            className="admin-button-primary"
          >
            Adicionar Produto
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

      {products.length === 0 ? (
        <div className="admin-card py-10 text-center">
          {q ? (
            <>
              <p className="text-slate-700">Nenhum produto encontrado para "{q}".</p>
              <Link
                to="/admin/products"
                className="mt-3 inline-block font-medium text-blue-700 underline"
              >
                Limpar busca
              </Link>
            </>
          ) : (
            <>
              <p className="text-slate-700">Nenhum produto cadastrado ainda.</p>
              <Link
                to={formHref(null)}
                onClick={(event) => productDialog.onLinkClick(event, true)}
                className="admin-button-primary mt-4"
              >
                Adicionar o primeiro produto
              </Link>
            </>
          )}
        </div>
      ) : (
        <>
          <AdminTable
            caption="Produtos"
            shownFrom="lg"
            columns={[
              { label: 'Produto' },
              { label: 'Categoria' },
              { label: 'Preço', end: true },
              { label: 'Estoque' },
              { label: 'Ações', end: true },
            ]}
          >
            {products.map((product) => (
              <tr key={product.id}>
                <td className="px-4 py-3">
                  <div className="flex items-center gap-3">
                    <ProductThumb src={product.image} size={40} />
                    <span className="font-medium break-words text-slate-900">{product.name}</span>
                  </div>
                </td>
                <td className="px-4 py-3 text-slate-700">{product.category ?? 'Sem categoria'}</td>
                <td className="px-4 py-3 text-right whitespace-nowrap">
                  {formatCents(product.priceCents)}
                </td>
                <td className="px-4 py-3">
                  <StockBadge quantity={product.stockQuantity} />
                </td>
                <td className="px-4 py-3">
                  <div className="flex justify-end gap-2">
                    {editLink(product, 'admin-button-secondary px-3')}
                    {deleteButton(product)}
                  </div>
                </td>
              </tr>
            ))}
          </AdminTable>

          <ul className="space-y-3 lg:hidden" aria-label="Produtos">
            {products.map((product) => (
              <li key={product.id} className="admin-card flex gap-3">
                <ProductThumb src={product.image} size={64} />
                <div className="min-w-0 flex-1 space-y-1">
                  <p className="font-medium break-words text-slate-900">{product.name}</p>
                  <p className="text-sm text-slate-600">{product.category ?? 'Sem categoria'}</p>
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="font-semibold">{formatCents(product.priceCents)}</span>
                    <StockBadge quantity={product.stockQuantity} />
                  </div>
                  <div className="flex flex-wrap gap-2 pt-2">
                    {editLink(product, 'admin-button-secondary px-3')}
                    {deleteButton(product)}
                  </div>
                </div>
              </li>
            ))}
          </ul>

          <Pagination
            look="admin"
            page={page}
            pageCount={pageCount}
            href={(target) => adminProductListPath({ q, page: target })}
          />
        </>
      )}
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
