import { Link } from 'react-router';

import { Pagination } from '~/components/ui/pagination';
import { formatCents } from '~/lib/money';
import { adminProductListPath, PRODUCT_MESSAGES } from '~/modules/catalog/index.admin';
import { countOf } from '~/lib/plural';

import { AdminTable } from './admin-table';
import { ConfirmDialog } from './confirm-dialog';
import { ProductThumb, StockBadge, VariantStockNote } from './product-list-parts';

/** One product as the admin's list shows it. */
export interface AdminProductRow {
  id: string;
  name: string;
  category: string | null;
  priceCents: number;
  /** The sum of its variants' stock. */
  stockQuantity: number;
  variants: number;
  /** Its variants at or below LOW_STOCK_MAX units. */
  lowVariants: number;
  image: string | null;
}

/** 'N produtos cadastrados', or 'N produtos encontrados para "q"' under a search. */
export function productCountText(total: number, q: string): string {
  const products = countOf(total, 'produto', 'produtos');
  if (!q) return products === '1 produto' ? '1 produto cadastrado' : `${products} cadastrados`;
  return `${products} ${total === 1 ? 'encontrado' : 'encontrados'} para "${q}"`;
}

/** The form's page for a product (`null`: a new one), coming back to this page of the list. */
export function productFormHref(id: string | null, listPath: string): string {
  const back = listPath === '/admin/products' ? '' : `?returnTo=${encodeURIComponent(listPath)}`;
  return `/admin/products/${id ?? 'new'}${back}`;
}

/** Opens the form over the list where it fits (see useProductDialog). */
type OnFormLinkClick = (event: React.MouseEvent<HTMLAnchorElement>, isNew: boolean) => void;

function ProductActions({
  product,
  listPath,
  onFormLinkClick,
}: {
  product: AdminProductRow;
  listPath: string;
  onFormLinkClick: OnFormLinkClick;
}) {
  return (
    <>
      <Link
        to={productFormHref(product.id, listPath)}
        onClick={(event) => onFormLinkClick(event, false)}
        className="admin-button-secondary px-3"
      >
        Editar<span className="sr-only"> {product.name}</span>
      </Link>
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
    </>
  );
}

/**
 * The products as a table on wide screens and as cards on phones, with the pager; or, when
 * there are none, what to do next (clear the search, add the first product).
 */
export function ProductList({
  products,
  q,
  page,
  pageCount,
  onFormLinkClick,
}: {
  products: AdminProductRow[];
  q: string;
  page: number;
  pageCount: number;
  onFormLinkClick: OnFormLinkClick;
}) {
  const listPath = adminProductListPath({ q, page });
  if (products.length === 0) {
    return (
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
              to={productFormHref(null, listPath)}
              onClick={(event) => onFormLinkClick(event, true)}
              className="admin-button-primary mt-4"
            >
              Adicionar o primeiro produto
            </Link>
          </>
        )}
      </div>
    );
  }
  const actions = (product: AdminProductRow) => (
    <ProductActions product={product} listPath={listPath} onFormLinkClick={onFormLinkClick} />
  );
  return (
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
              <VariantStockNote product={product} />
            </td>
            <td className="px-4 py-3">
              <div className="flex justify-end gap-2">{actions(product)}</div>
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
                <VariantStockNote product={product} />
              </div>
              <div className="flex flex-wrap gap-2 pt-2">{actions(product)}</div>
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
  );
}
