import { Link } from 'react-router';

import { CartFeedback, useAddToCart } from '~/components/store/add-to-cart';
import { PriceOffers } from '~/components/store/price-offers';
import { RatingStars } from '~/components/store/rating-stars';
import { useSelling, useSettings } from '~/components/store/store-data';
import { HydrationSlice } from '~/components/ui/hydration-slice';
import { CartIcon } from '~/components/ui/icons';
import { Money } from '~/components/ui/money';
import { publicFileUrl } from '~/lib/public-files';
import { productPath, type Product } from '~/modules/catalog';
import { mediaSrcSet } from '~/modules/media';
import { effectivePriceCents } from '~/modules/pricing';
import type { RatingSummary } from '~/modules/reviews';

/**
 * The cards of a list's first row on a phone (two to a row): the page's largest paint, so their
 * pictures are fetched at once and first; the rest wait until they come near the screen.
 */
export const PRIORITY_CARDS = 2;

const NEW_ABOVE_STOCK = 50;
const FEW_LEFT_BELOW_STOCK = 10;

function StockBadge({ stock }: { stock: number }) {
  const badge =
    stock === 0
      ? { text: 'Esgotado', className: 'bg-gray-700 text-white' }
      : stock < FEW_LEFT_BELOW_STOCK
        ? { text: 'Últimas unidades', className: 'bg-amber-100 text-amber-900' }
        : stock > NEW_ABOVE_STOCK
          ? { text: 'Novo', className: 'bg-emerald-700 text-white' }
          : null;
  if (!badge) return null;
  return (
    <span
      className={`w-fit rounded-button px-2 py-0.5 text-xs font-semibold ${badge.className}`}
      data-testid="stock-badge"
    >
      {badge.text}
    </span>
  );
}

/**
 * A one-unit add. Narrow cards (two to a row on a phone) show the cart icon and 'Adicionar' on
 * one line; wider ones the store's own text. Screen readers always hear the store's text and the
 * product's name. The answer appears in the page's toast, so the card never changes size.
 */
function AddToCart({ product, list }: { product: Product; list: boolean }) {
  const settings = useSettings();
  const { fetcher, reply } = useAddToCart(product);
  return (
    <fetcher.Form
      method="post"
      action="/cart"
      // A size container takes no width from its content: beside the price in a list row it
      // needs its own.
      className={`@container relative z-10 ${list ? 'sm:w-60 sm:shrink-0' : ''}`}
      aria-busy={fetcher.state !== 'idle'}
      onSubmit={(event) => {
        // A double click would otherwise add two units.
        if (fetcher.state !== 'idle') event.preventDefault();
      }}
    >
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="productId" value={product.id} />
      <input type="hidden" name="quantity" value="1" />
      <button
        type="submit"
        className="btn btn-primary w-full gap-1.5 px-2 text-sm whitespace-nowrap"
        data-testid="card-add"
      >
        <CartIcon className="h-5 w-5 shrink-0" />
        <span aria-hidden="true" className="@[15rem]:hidden">
          Adicionar
        </span>
        <span className="sr-only @[15rem]:not-sr-only @[15rem]:truncate">
          {settings.add_to_cart_text}
        </span>
        <span className="sr-only">: {product.name}</span>
      </button>
      <CartFeedback reply={reply} testId="card-feedback" />
    </fetcher.Form>
  );
}

/** Holds the add button's place on a sold-out card, so every card in a row has one shape. */
function SoldOut({ list }: { list: boolean }) {
  return (
    <span
      aria-hidden="true"
      className={`btn w-full cursor-not-allowed ${list ? 'sm:w-60 sm:shrink-0' : ''} border border-card-border bg-page px-2 text-sm whitespace-nowrap text-product-description`}
      data-testid="card-sold-out"
    >
      Esgotado
    </span>
  );
}

/**
 * A card that sends the shopper to the product's page: to choose one of its variants, or, while
 * the store cannot take a payment, to read there that it is not selling yet.
 */
function CardLink({
  product,
  list,
  label,
  testId,
}: {
  product: Product;
  list: boolean;
  label: string;
  testId: string;
}) {
  return (
    <Link
      to={productPath(product)}
      className={`btn btn-outline relative z-10 w-full px-2 text-sm whitespace-nowrap ${list ? 'sm:w-60 sm:shrink-0' : ''}`}
      data-testid={testId}
    >
      {label}
      <span className="sr-only">: {product.name}</span>
    </Link>
  );
}

/**
 * The card's price: 'a partir de' the lowest when the variants differ in price, with the 'de'
 * price of that variant when it has one above it.
 */
function CardPrice({ product }: { product: Product }) {
  // The lowest variant's price; a product built without its card's summary shows its own.
  const from = effectivePriceCents(product.card?.fromCents ?? null, product.priceCents);
  const varies = product.card ? product.card.toCents > from : false;
  const compareAt = product.card?.compareAtCents;
  return (
    <div>
      {compareAt && compareAt > from ? (
        <p className="text-sm text-product-description" data-testid="card-compare-at">
          De{' '}
          <s>
            <Money cents={compareAt} />
          </s>
        </p>
      ) : null}
      <p data-testid="card-price">
        {varies ? <span className="text-sm">a partir de </span> : null}
        <Money cents={from} className="product-price" />
      </p>
      <PriceOffers cents={from} />
    </div>
  );
}

/**
 * A product in a grid or a list: picture, category, name (the link to its page), real rating,
 * price, stock badge and a one-unit add to cart. The whole card is clickable through the name.
 */
export function ProductCard({
  product,
  rating,
  layout = 'grid',
  priority = false,
}: {
  product: Product;
  rating?: RatingSummary;
  layout?: 'grid' | 'list';
  /** One of the first PRIORITY_CARDS cards of its list. */
  priority?: boolean;
}) {
  // The first variant's picture (a colour's own photo), else the product's.
  const image = product.card?.imageUrl ?? product.imageUrls[0];
  const chooses = (product.card?.variantCount ?? 1) > 1;
  const list = layout === 'list';
  const settings = useSettings();
  const selling = useSelling();
  // A card of its own to hydrate: a tap on 'Adicionar' while the page hydrates takes this card
  // first, not the whole grid (ADR 023).
  return (
    <HydrationSlice>
      <article
        className={`product-card relative flex h-full gap-3 ${list ? 'flex-row' : 'flex-col'}`}
        data-testid="product-card"
      >
        {image ? (
          <img
            src={publicFileUrl(image)}
            srcSet={mediaSrcSet(image)}
            sizes={
              list
                ? '(min-width: 640px) 160px, 96px'
                : '(min-width: 1024px) 300px, (min-width: 768px) 33vw, 50vw'
            }
            alt={product.name}
            width={400}
            height={400}
            loading={priority ? 'eager' : 'lazy'}
            fetchPriority={priority ? 'high' : undefined}
            decoding="async"
            className={`aspect-square rounded-card object-cover ${list ? 'w-24 shrink-0 self-start sm:w-40' : 'w-full'}`}
          />
        ) : null}
        <div className="flex min-w-0 flex-1 flex-col gap-2">
          {product.category ? (
            <p className="text-sm text-product-description">{product.category.name}</p>
          ) : null}
          <h3 className="product-title line-clamp-3 break-words hyphens-auto max-sm:text-base">
            {/* Cut to three lines on screen; the title shows the whole name on hover, and a
                screen reader reads it all. */}
            <Link
              to={productPath(product)}
              title={product.name}
              className="before:absolute before:inset-0 before:content-[''] focus-visible:underline"
            >
              {product.name}
            </Link>
          </h3>
          {list && product.description ? (
            <p className="line-clamp-2 hidden text-sm text-product-description sm:block">
              {product.description}
            </p>
          ) : null}
          {rating && rating.count > 0 ? <RatingStars {...rating} /> : null}
          <StockBadge stock={product.stockQuantity} />
          <div
            className={`mt-auto flex flex-col gap-2 ${list ? 'sm:flex-row sm:items-start sm:justify-between' : ''}`}
          >
            <CardPrice product={product} />
            {product.stockQuantity > 0 && !selling ? (
              <CardLink
                product={product}
                list={list}
                label={settings.view_product_text}
                testId="card-view"
              />
            ) : product.stockQuantity > 0 && chooses ? (
              <CardLink product={product} list={list} label="Ver opções" testId="card-choose" />
            ) : product.stockQuantity > 0 ? (
              <AddToCart product={product} list={list} />
            ) : (
              <SoldOut list={list} />
            )}
          </div>
        </div>
      </article>
    </HydrationSlice>
  );
}
