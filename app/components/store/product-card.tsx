import { Money } from '~/components/ui/money';
import type { Product } from '~/modules/catalog';

export function ProductCard({ product }: { product: Product }) {
  const image = product.imageUrls[0];
  return (
    <article className="product-card flex h-full flex-col gap-3" data-testid="product-card">
      {image ? (
        <img
          src={image}
          alt={product.name}
          width={400}
          height={400}
          loading="lazy"
          decoding="async"
          className="aspect-square w-full rounded-card object-cover"
        />
      ) : null}
      {product.category ? (
        <p className="text-sm text-product-description">{product.category.name}</p>
      ) : null}
      <h3 className="product-title">{product.name}</h3>
      <Money cents={product.priceCents} className="product-price mt-auto" />
    </article>
  );
}
