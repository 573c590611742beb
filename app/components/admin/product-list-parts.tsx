import { useState, type ReactNode } from 'react';

import { isOwnImage } from '~/lib/admin-path';
import { mediaSrcSet } from '~/modules/media';

/**
 * A product's image (the list's thumbnail, the form's preview), or `fallback` (an empty square
 * unless told) when it has none, is on another site, or does not load: a typo in the URL.
 * Checked on mount too: the error can come before React listens.
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
  const [failed, setFailed] = useState<string | null>(null);
  const box = size === 40 ? 'h-10 w-10' : 'h-16 w-16';
  if (!src || failed === src || !isOwnImage(src)) {
    return (
      fallback ?? <span aria-hidden="true" className={`${box} shrink-0 rounded bg-slate-200`} />
    );
  }
  return (
    <img
      ref={(image) => {
        if (image?.complete && image.naturalWidth === 0) setFailed(src);
      }}
      onError={() => setFailed(src)}
      src={src}
      srcSet={mediaSrcSet(src)}
      sizes={`${size}px`}
      alt={alt}
      width={size}
      height={size}
      loading="lazy"
      decoding="async"
      className={`${box} shrink-0 rounded border border-slate-200 object-cover`}
    />
  );
}

/**
 * Units in stock with SPEC §9's colours (above 10 green, 1 to 10 yellow, 0 red) and words, so
 * the colour is never the only sign.
 */
export function StockBadge({ quantity }: { quantity: number }) {
  const [look, words] =
    quantity > 10
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
