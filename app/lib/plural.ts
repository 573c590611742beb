import { formatInteger } from './money';

/**
 * A count with its noun in the right number: '1 pedido', '0 pedidos', '1.204 pedidos'. In
 * Portuguese only one is singular (zero takes the plural), so a pair of words is all a text needs.
 */
export function countOf(count: number, one: string, many: string): string {
  return `${formatInteger(count)} ${count === 1 ? one : many}`;
}
