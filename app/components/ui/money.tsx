import { formatCents } from '~/lib/money';

/** A price in integer cents, written the Brazilian way: R$ 1.234,56. */
export function Money({ cents, className }: { cents: number; className?: string }) {
  return <span className={`whitespace-nowrap ${className ?? ''}`}>{formatCents(cents)}</span>;
}
