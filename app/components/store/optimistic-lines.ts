import { useFetchers } from 'react-router';

import type { PricedLine } from '~/modules/cart';
import { lineTotalCents } from '~/modules/pricing';

/**
 * The lines as they will be once the cart changes in flight reach the server, so +, − and
 * remove feel instant. The server still decides: its answer replaces these on revalidation.
 */
export function useOptimisticLines(lines: PricedLine[]): PricedLine[] {
  const pending = new Map<string, number>();
  let clearing = false;
  for (const fetcher of useFetchers()) {
    const form = fetcher.formData;
    if (fetcher.formAction !== '/cart' || !form) continue;
    const variantId = String(form.get('variantId')).toLowerCase();
    const intent = form.get('intent');
    if (intent === 'clear') clearing = true;
    else if (intent === 'remove') pending.set(variantId, 0);
    else if (intent === 'set') {
      const quantity = Number(form.get('quantity'));
      if (Number.isInteger(quantity) && quantity >= 0) pending.set(variantId, quantity);
    }
  }
  if (clearing) return [];
  return lines.flatMap((line) => {
    const wanted = pending.get(line.variantId);
    if (wanted === undefined) return [line];
    const quantity = Math.min(wanted, line.maxQuantity);
    if (quantity === 0) return [];
    return [{ ...line, quantity, lineTotalCents: lineTotalCents(line.unitPriceCents, quantity) }];
  });
}
