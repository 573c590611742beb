import { PriceOffers } from '~/components/store/price-offers';
import { Money } from '~/components/ui/money';

/**
 * The product page's price: 'De R$ 199,00 por' above it when there is a 'de' price, and the PIX
 * and instalment offers below.
 */
export function ProductPrice({
  cents,
  compareAtCents,
}: {
  cents: number;
  compareAtCents: number | null;
}) {
  return (
    <div className="flex flex-col gap-1" data-testid="product-price">
      {compareAtCents !== null ? (
        <p className="text-sm text-product-description" data-testid="compare-at-price">
          De{' '}
          <del>
            <Money cents={compareAtCents} />
          </del>{' '}
          por
        </p>
      ) : null}
      <Money cents={cents} className="product-price" />
      <PriceOffers cents={cents} />
    </div>
  );
}
