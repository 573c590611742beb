import { Link, useFetcher } from 'react-router';

import { InstallmentsLine } from '~/components/store/price-offers';
import { ShippingEstimate } from '~/components/store/shipping-estimate';
import { useSelling, useSettings } from '~/components/store/store-data';
import { AdjustmentRows, Money } from '~/components/ui/money';
import { formatCents } from '~/lib/money';
import type { PricedLine } from '~/modules/cart';
import { couponMissText } from '~/modules/coupons';
import type { ShippingEstimate as Estimate } from '~/modules/orders';
import {
  freeShippingFromCents,
  installmentOffer,
  missingForMinimumCents,
  priceOrder,
  type CouponTerms,
} from '~/modules/pricing';

import { CouponBox, type CouponState } from './coupon-box';
import { NotSellingNotice } from './not-selling-notice';

function Row({
  label,
  children,
  testId,
  className = '',
}: {
  label: string;
  children: React.ReactNode;
  testId: string;
  className?: string;
}) {
  return (
    <div className={`flex items-baseline justify-between gap-4 ${className}`}>
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}

/**
 * Subtotal, shipping and total of these lines, the PIX total and instalments the store offers,
 * a shipping estimate for a CEP, and the way on to checkout (or, while the store cannot take a
 * payment, the word that it is not selling yet).
 */
export function CartSummary({
  lines,
  estimate,
  coupon,
  couponRefusal,
}: {
  lines: PricedLine[];
  estimate: Estimate | null;
  coupon: CouponState | null;
  /** The cart action's refusal of a code posted without JavaScript, and the code as sent. */
  couponRefusal?: { error: string; typed?: string };
}) {
  const settings = useSettings();
  const selling = useSelling();
  const clear = useFetcher({ key: 'cart-clear' });
  // The pricing pipeline itself, on the lines as the shopper just changed them: what this shows
  // is what the server will charge. Without a payment method chosen, and with PIX beside it.
  const terms: CouponTerms | null = coupon?.terms ?? null;
  // With carriers quoted for the shopper's CEP, the cheapest option until checkout asks.
  const shippingChoice =
    estimate?.ok && estimate.shipping.kind === 'carrier'
      ? { offers: estimate.shipping.options, chosenId: null }
      : null;
  const priced = priceOrder(lines, settings, {
    paymentMethod: null,
    coupon: terms,
    shipping: shippingChoice,
  });
  const withPix = priceOrder(lines, settings, {
    paymentMethod: 'pix',
    coupon: terms,
    shipping: shippingChoice,
  });
  const subtotal = priced.subtotalCents;
  const shipping = priced.shippingCents;
  const total = priced.totalCents;
  const units = lines.reduce((sum, line) => sum + line.quantity, 0);
  const freeFrom = freeShippingFromCents(settings);
  const missingForMinimum = missingForMinimumCents(subtotal, settings);
  const pixAdjustment = withPix.adjustments.find((adjustment) => adjustment.kind === 'pix');
  const installments = installmentOffer(total, settings);
  const miss = withPix.couponMiss ?? priced.couponMiss;

  return (
    <section
      aria-labelledby="cart-summary-title"
      className="flex h-fit flex-col gap-4 rounded-card border border-card-border bg-card p-4"
    >
      <h2 id="cart-summary-title" className="text-xl">
        Resumo do pedido
      </h2>
      <dl className="flex flex-col gap-2">
        <Row label={`Subtotal (${units} ${units === 1 ? 'item' : 'itens'})`} testId="cart-subtotal">
          <Money cents={subtotal} />
        </Row>
        <Row label="Frete" testId="cart-shipping">
          {shipping === 0 ? 'Grátis' : <Money cents={shipping} />}
        </Row>
        <AdjustmentRows
          adjustments={priced.adjustments}
          testId="cart-discount"
          className="flex items-baseline justify-between gap-4"
        />
        <Row
          label="Total"
          testId="cart-total"
          className="border-t border-card-border pt-2 text-lg font-bold"
        >
          <Money cents={total} />
        </Row>
        {withPix.totalCents !== total ? (
          <Row label="Total no PIX" testId="cart-pix-total" className="font-semibold">
            <Money cents={withPix.totalCents} className="text-pix" />
          </Row>
        ) : null}
      </dl>
      {pixAdjustment || installments ? (
        <div className="-mt-2 flex flex-col text-sm" data-testid="cart-offers">
          {pixAdjustment ? (
            <p data-testid="cart-pix-saving">
              {settings.pix_discount_percent}% de desconto no PIX: você economiza{' '}
              <Money cents={-pixAdjustment.cents} />.
            </p>
          ) : null}
          {installments ? (
            <InstallmentsLine offer={installments} testId="cart-installments" />
          ) : null}
        </div>
      ) : null}
      <CouponBox
        coupon={coupon}
        miss={coupon && miss ? couponMissText(coupon.code, miss) : null}
        error={couponRefusal?.error}
        typed={couponRefusal?.typed}
      />
      {shipping > 0 && freeFrom !== null ? (
        <p className="text-sm">
          Frete grátis em compras a partir de <Money cents={freeFrom} />.
        </p>
      ) : null}
      <ShippingEstimate amountCents={subtotal} initial={estimate} page="/cart" headingLevel={3} />
      {!selling ? (
        <NotSellingNotice />
      ) : missingForMinimum > 0 ? (
        <>
          <p id="cart-minimum" className="text-sm font-semibold">
            O pedido mínimo é de {formatCents(settings.min_order_value_cents)}. Faltam{' '}
            {formatCents(missingForMinimum)} para finalizar a compra.
          </p>
          <button
            type="button"
            disabled
            aria-describedby="cart-minimum"
            className="btn btn-primary w-full"
          >
            {settings.checkout_text}
          </button>
        </>
      ) : (
        <Link to="/checkout" className="btn btn-primary w-full">
          {settings.checkout_text}
        </Link>
      )}
      <Link to="/products" className="btn btn-outline w-full">
        {settings.continue_shopping_text}
      </Link>
      <clear.Form method="post" action="/cart" className="text-center">
        <input type="hidden" name="intent" value="clear" />
        <button type="submit" className="btn text-sm text-link underline">
          Esvaziar carrinho
        </button>
      </clear.Form>
    </section>
  );
}
