import { AdjustmentRows, Money } from '~/components/ui/money';
import { OrderLine, type OrderLineView } from '~/components/ui/order-line';
import { mediaSrcSet } from '~/modules/media';

export interface SummaryLine extends OrderLineView {
  productId: string | null;
  variantId: string | null;
}

/** Lines and totals of a cart about to be ordered, or of an order already placed. */
export function OrderSummary({
  title,
  lines,
  subtotalCents,
  shippingCents,
  shippingLabel = 'Frete',
  adjustments,
  totalCents,
  children,
}: {
  title: string;
  lines: SummaryLine[];
  subtotalCents: number;
  shippingCents: number;
  /** 'Frete (Correios SEDEX)': the shipping line's name (shippingLineLabel). */
  shippingLabel?: string;
  /** The coupon and PIX discounts, already in `totalCents`, as the pricing pipeline named them. */
  adjustments: readonly { label: string; cents: number }[];
  totalCents: number;
  children?: React.ReactNode;
}) {
  return (
    <section
      aria-labelledby="order-summary-title"
      className="flex h-fit flex-col gap-4 rounded-card border border-card-border bg-card p-4"
    >
      <h2 id="order-summary-title" className="text-xl">
        {title}
      </h2>
      <ul className="flex flex-col gap-3">
        {lines.map((line, index) => (
          <OrderLine key={line.variantId ?? index} line={line} look="store" srcSet={mediaSrcSet} />
        ))}
      </ul>
      <dl className="flex flex-col gap-2 border-t border-card-border pt-3">
        <div className="flex justify-between gap-4">
          <dt>Subtotal</dt>
          <dd data-testid="summary-subtotal">
            <Money cents={subtotalCents} />
          </dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt>{shippingLabel}</dt>
          <dd data-testid="summary-shipping">
            {shippingCents === 0 ? 'Grátis' : <Money cents={shippingCents} />}
          </dd>
        </div>
        <AdjustmentRows adjustments={adjustments} testId="summary-discount" />
        <div className="flex justify-between gap-4 border-t border-card-border pt-2 text-lg font-bold">
          <dt>Total</dt>
          <dd data-testid="summary-total">
            <Money cents={totalCents} />
          </dd>
        </div>
      </dl>
      {children}
    </section>
  );
}
