import type { ReactNode } from 'react';

import { Thumbnail } from '~/components/ui/thumbnail';
import { isOwnImage } from '~/lib/admin-path';
import { countOf } from '~/lib/plural';
import { LOW_STOCK_MAX } from '~/modules/catalog/index.admin';
import { mediaSrcSet } from '~/modules/media';

/**
 * A product's image (the list's thumbnail, the form's preview), or `fallback` (an empty square
 * unless told) when it has none, is on another site, or does not load: a typo in the URL.
 */
export function ProductThumb({
  src,
  size,
  alt = '',
  fallback,
}: {
  src: string | null;
  size: 40 | 64;
  alt?: string;
  fallback?: ReactNode;
}) {
  const box = size === 40 ? 'h-10 w-10' : 'h-16 w-16';
  const own = src && isOwnImage(src) ? src : null;
  return (
    <Thumbnail
      src={own}
      srcSet={own ? mediaSrcSet(own) : undefined}
      size={size}
      alt={alt}
      className={`${box} rounded border border-slate-200`}
      fallback={
        fallback ?? <span aria-hidden="true" className={`${box} shrink-0 rounded bg-slate-200`} />
      }
    />
  );
}

/**
 * Units in stock with SPEC §9's colours (above LOW_STOCK_MAX green, 1 to it yellow, 0 red) and words, so
 * the colour is never the only sign.
 */
export function StockBadge({ quantity }: { quantity: number }) {
  const [look, words] =
    quantity > LOW_STOCK_MAX
      ? ['bg-green-100 text-green-900', `${quantity.toLocaleString('pt-BR')} em estoque`]
      : quantity > 0
        ? ['bg-yellow-100 text-yellow-900', `${quantity} · estoque baixo`]
        : ['bg-red-100 text-red-900', 'Sem estoque'];
  return (
    <span
      className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${look}`}
    >
      {words}
    </span>
  );
}

/** Under a product with variants: how many, and how many are running low ('2 com estoque baixo'). */
export function VariantStockNote({
  product,
}: {
  product: { variants: number; lowVariants: number };
}) {
  if (product.variants < 2) return null;
  const low =
    product.lowVariants > 0
      ? ` · ${product.lowVariants.toLocaleString('pt-BR')} com estoque baixo`
      : '';
  return (
    <span className="block text-xs text-slate-600">
      {countOf(product.variants, 'variante', 'variantes')}
      {low}
    </span>
  );
}
