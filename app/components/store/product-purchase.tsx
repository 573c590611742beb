import { lazy, Suspense } from 'react';

import { useSelling, useSettings } from '~/components/store/store-data';
import type { PageVariant, Product } from '~/modules/catalog';

import { CartFeedback, useAddToCart } from './add-to-cart';
import { NotSellingNotice } from './not-selling-notice';
import { QuantitySelector } from './quantity-selector';

// Only a sold-out variant shows 'Avise-me', so its form (and the form kit it is built with) is
// fetched when one is shown, not with every product page. Until it has arrived the page keeps the
// server's form, which posts without JavaScript.
const loadRestockForm = () => import('./restock-form');
const RestockForm = lazy(() =>
  loadRestockForm().then((module) => ({ default: module.RestockForm })),
);

/** Fetches the 'Avise-me' form ahead of a variant that will need it. */
export function preloadRestockForm(): void {
  void loadRestockForm();
}

interface PurchaseProps {
  product: Product;
  /** The variant chosen: what the buttons put in the cart. */
  variant: PageVariant;
  /** Whether the product has other variants to choose instead. */
  several: boolean;
}

function PurchaseForm({ product, variant }: Omit<PurchaseProps, 'several'>) {
  const settings = useSettings();
  const { fetcher, reply, noteQuantity } = useAddToCart({
    id: product.id,
    name: product.name,
    priceCents: variant.priceCents,
  });
  return (
    <fetcher.Form
      method="post"
      action="/cart"
      className="flex flex-col gap-4"
      onSubmit={(event) => noteQuantity(event.currentTarget)}
    >
      <input type="hidden" name="productId" value={product.id} />
      <input type="hidden" name="variantId" value={variant.id} />
      <QuantitySelector max={Math.min(variant.stockQuantity, settings.max_quantity_per_item)} />
      <div className="flex flex-col gap-3 sm:flex-row">
        <button type="submit" name="intent" value="buy" className="btn btn-success sm:flex-1">
          {settings.buy_now_text}
        </button>
        <button type="submit" name="intent" value="add" className="btn btn-primary sm:flex-1">
          {settings.add_to_cart_text}
        </button>
      </div>
      <CartFeedback
        reply={reply}
        className="min-h-6 text-sm font-semibold"
        testId="cart-feedback"
      />
    </fetcher.Form>
  );
}

/** Stock is news only when it runs out: 'Últimas 3 unidades' up to this many, nothing above. */
const LOW_STOCK_MAX = 9;

function lowStockNote(stock: number): string | null {
  if (stock < 1 || stock > LOW_STOCK_MAX) return null;
  return stock === 1 ? 'Última unidade' : `Últimas ${stock} unidades`;
}

/**
 * What the product page offers to buy of the variant chosen: the quantity and the two buttons
 * (with 'Últimas n unidades' when few are left), or 'Esgotado' with the 'Avise-me' form. A store
 * that cannot take a payment yet says so instead of the buttons.
 */
export function ProductPurchase({ product, variant, several }: PurchaseProps) {
  const selling = useSelling();
  const inStock = variant.stockQuantity > 0;
  const lowStock = lowStockNote(variant.stockQuantity);
  if (inStock && !selling) return <NotSellingNotice />;
  return inStock ? (
    <>
      {lowStock ? (
        <p
          className="self-start rounded-button bg-amber-100 px-3 py-1 text-sm font-semibold text-amber-900"
          data-testid="stock"
        >
          {lowStock}
        </p>
      ) : null}
      <PurchaseForm product={product} variant={variant} />
    </>
  ) : (
    <div className="flex flex-col gap-2" data-testid="out-of-stock">
      <p className="self-start rounded-button border border-card-border bg-card px-3 py-1 font-bold">
        Esgotado
      </p>
      <p className="text-sm">
        {several
          ? 'Esta opção está esgotada no momento.'
          : 'Este produto está esgotado no momento.'}
      </p>
      <Suspense fallback={null}>
        <RestockForm productId={product.id} variantId={variant.id} />
      </Suspense>
    </div>
  );
}
