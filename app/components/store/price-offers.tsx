import { useSettings } from '~/components/store/store-data';
import { Money } from '~/components/ui/money';
import {
  installmentOffer,
  pixDiscountCents,
  pixPriceCents,
  type InstallmentOffer,
} from '~/modules/pricing';

/**
 * How Brazilian shoppers read a price: the PIX price when the store gives a PIX discount, and
 * 'ou 12x de R$ … sem juros' when it takes cards in instalments. Nothing when it does neither.
 */
export function PriceOffers({ cents, className = '' }: { cents: number; className?: string }) {
  const settings = useSettings();
  const discount = pixDiscountCents(cents, settings);
  const installments = installmentOffer(cents, settings);
  if (discount === 0 && !installments) return null;
  return (
    <div className={`flex flex-col text-sm ${className}`} data-testid="price-offers">
      {discount > 0 ? (
        <p data-testid="pix-price">
          <Money cents={pixPriceCents(cents, settings)} className="font-bold text-pix" /> no PIX{' '}
          <span className="text-product-description">
            ({settings.pix_discount_percent}% de desconto)
          </span>
        </p>
      ) : null}
      {installments ? <InstallmentsLine offer={installments} testId="installments" /> : null}
    </div>
  );
}

/** 'ou 12x de R$ 24,99 sem juros', or 'ou em até 12x no cartão' when the shopper pays interest. */
export function InstallmentsLine({ offer, testId }: { offer: InstallmentOffer; testId: string }) {
  return (
    <p data-testid={testId}>
      {offer.amountCents === null ? (
        <>ou em até {offer.count}x no cartão</>
      ) : (
        <>
          ou {offer.count}x de <Money cents={offer.amountCents} /> sem juros
        </>
      )}
    </p>
  );
}
