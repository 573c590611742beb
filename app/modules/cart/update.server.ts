import type { Db } from '~/db/database.server';
import { lookupProducts, type ProductSummary } from '~/modules/catalog/index.server';

import { seenName } from './cookie.server';
import type { CartIntent } from './intent';
import {
  countUnits,
  lineMaximum,
  perOrderLimit,
  reconcile,
  type LineLimits,
} from './pricing.server';
import { MAX_CART_LINES, type CartLine } from './types';

export type CartUpdate =
  | {
      ok: true;
      lines: CartLine[];
      /** Units in the cart afterwards, as the header badge will count them. */
      count: number;
      message: string;
      /** True when the shopper got fewer units than asked for (stock or per-line limit). */
      capped: boolean;
    }
  | { ok: false; status: 404 | 409; error: string };

type Change = Omit<Extract<CartUpdate, { ok: true }>, 'count'> | Extract<CartUpdate, { ok: false }>;

function notFound(): Change {
  return { ok: false, status: 404, error: 'Produto não encontrado.' };
}

function soldOut(product: ProductSummary): Change {
  return { ok: false, status: 409, error: `O produto “${product.name}” está esgotado.` };
}

function cappedMessage(product: ProductSummary, quantity: number, limits: LineLimits): string {
  const stock = product.stockQuantity;
  if (quantity >= stock) {
    const units = stock === 1 ? 'unidade' : 'unidades';
    return `Só temos ${stock} ${units} de “${product.name}” em estoque; seu carrinho ficou com ${quantity}.`;
  }
  return `${perOrderLimit(limits, product.name)}; seu carrinho ficou com ${quantity}.`;
}

/**
 * Puts `quantity` units of the product in the cart (at most the stock and the store's limit),
 * keeping its place.
 */
function putLine(
  lines: readonly CartLine[],
  product: ProductSummary,
  wanted: number,
  message: string,
  limits: LineLimits,
): Change {
  if (product.stockQuantity <= 0) return soldOut(product);
  const existing = lines.find((line) => line.productId === product.id);
  if (!existing && lines.length >= MAX_CART_LINES) {
    return {
      ok: false,
      status: 409,
      error: `Seu carrinho já tem ${MAX_CART_LINES} produtos diferentes. Finalize esta compra ou remova algum item.`,
    };
  }
  const quantity = Math.min(wanted, lineMaximum(product, limits));
  const capped = quantity < wanted;
  const next: CartLine[] = existing
    ? lines.map((line) => (line.productId === product.id ? { ...line, quantity } : line))
    : [
        ...lines,
        {
          productId: product.id,
          quantity,
          seenPriceCents: product.priceCents,
          seenName: seenName(product.name),
        },
      ];
  return {
    ok: true,
    lines: next,
    capped,
    message: capped ? cappedMessage(product, quantity, limits) : message,
  };
}

function change(
  lines: readonly CartLine[],
  intent: Exclude<CartIntent, { intent: 'clear' }>,
  product: ProductSummary | undefined,
  limits: LineLimits,
): Change {
  const remove = (): Change => ({
    ok: true,
    lines: lines.filter((line) => line.productId !== intent.productId),
    capped: false,
    message: product
      ? `“${product.name}” foi removido do seu carrinho.`
      : 'O produto foi removido do seu carrinho.',
  });
  switch (intent.intent) {
    case 'remove':
      return remove();
    case 'set':
      if (intent.quantity === 0) return remove();
      if (!product) return notFound();
      return putLine(
        lines,
        product,
        intent.quantity,
        `Quantidade de “${product.name}” atualizada para ${intent.quantity}.`,
        limits,
      );
    case 'add':
    case 'buy': {
      if (!product) return notFound();
      const inCart = lines.find((line) => line.productId === product.id)?.quantity ?? 0;
      return putLine(
        lines,
        product,
        inCart + intent.quantity,
        `“${product.name}” foi adicionado ao seu carrinho.`,
        limits,
      );
    }
  }
}

/**
 * Applies one cart action to the lines read from the cookie. Prices and stock come from the
 * database (one query for the product and the rest of the cart); the other lines are left as
 * they are, so the cart page can still tell the shopper what changed in them.
 */
export async function updateCart(
  db: Db,
  lines: readonly CartLine[],
  intent: CartIntent,
  limits: LineLimits,
): Promise<CartUpdate> {
  if (intent.intent === 'clear') {
    return { ok: true, lines: [], count: 0, capped: false, message: 'Seu carrinho foi esvaziado.' };
  }
  const products = await lookupProducts(db, [
    intent.productId,
    ...lines.map((line) => line.productId),
  ]);
  const product = products.find((candidate) => candidate.id === intent.productId);
  const result = change(lines, intent, product, limits);
  if (!result.ok) return result;
  return { ...result, count: countUnits(reconcile(result.lines, products, limits).lines) };
}
