import { formatCents, formatSignedCents } from '~/lib/money';

/** A price in integer cents, written the Brazilian way: R$ 1.234,56. */
export function Money({ cents, className }: { cents: number; className?: string }) {
  return <span className={`whitespace-nowrap ${className ?? ''}`}>{formatCents(cents)}</span>;
}

/** An order's adjustment as screens show it: '− R$ 49,99' for a discount, '+ R$ 5,00' otherwise. */
export function SignedMoney({ cents, className }: { cents: number; className?: string }) {
  return <span className={`whitespace-nowrap ${className ?? ''}`}>{formatSignedCents(cents)}</span>;
}

/** The adjustments of an order (coupon, PIX discount) as rows of a summary's `<dl>`. */
export function AdjustmentRows({
  adjustments,
  testId,
  className = 'flex justify-between gap-4',
}: {
  adjustments: readonly { label: string; cents: number }[];
  testId: string;
  className?: string;
}) {
  return adjustments.map((adjustment) => (
    <div key={adjustment.label} className={className}>
      <dt>{adjustment.label}</dt>
      <dd data-testid={testId} className="font-semibold">
        <SignedMoney cents={adjustment.cents} />
      </dd>
    </div>
  ));
}
