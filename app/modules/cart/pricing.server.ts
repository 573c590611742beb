import type { Db } from '~/db/database.server';
import { formatCents } from '~/lib/money';
import { lookupProducts, type ProductSummary } from '~/modules/catalog/index.server';
import type { StoreSettings } from '~/modules/settings';
import { countOf } from '~/lib/plural';

import { priceOrder, type PricingChoices, type PricingRules } from '~/modules/pricing';

import { cartCookieHeader, readCart, seenName } from './cookie.server';
import type { CartLine, PricedCart, PricedLine } from './types';

/** What limits a cart line: the store's most units of one product per order. */
export type LineLimits = Pick<StoreSettings, 'max_quantity_per_item'>;

/** What pricing a cart reads from the settings: the pipeline's rules and the line limit. */
export type PricingSettings = PricingRules & LineLimits;

/** The most units of this product one line may hold now: the stock, at most the store's limit. */
export function lineMaximum(product: ProductSummary, limits: LineLimits): number {
  return Math.min(product.stockQuantity, limits.max_quantity_per_item);
}

function units(count: number): string {
  return countOf(count, 'unidade', 'unidades');
}

/** The store's limit per product, said of one product. */
export function perOrderLimit(limits: LineLimits, name: string): string {
  return `Cada pedido pode ter até ${units(limits.max_quantity_per_item)} de “${name}”`;
}

export interface Reconciled {
  /** The lines still in the cart, at today's price and at most the stock. */
  lines: CartLine[];
  priced: PricedLine[];
  notices: string[];
}

/** Checks the lines against the products as they are now, and says what had to change. */
export function reconcile(
  lines: readonly CartLine[],
  products: ProductSummary[],
  limits: LineLimits,
): Reconciled {
  const byId = new Map(products.map((product) => [product.id, product]));
  const result: Reconciled = { lines: [], priced: [], notices: [] };
  for (const line of lines) {
    const product = byId.get(line.productId);
    if (!product) {
      result.notices.push(
        line.seenName
          ? `O produto “${line.seenName}” não está mais disponível e foi removido do seu carrinho.`
          : 'Um produto do seu carrinho não está mais disponível e foi removido.',
      );
      continue;
    }
    if (product.stockQuantity <= 0) {
      result.notices.push(`O produto “${product.name}” esgotou e foi removido do seu carrinho.`);
      continue;
    }
    if (product.priceCents !== line.seenPriceCents) {
      result.notices.push(
        `O preço de “${product.name}” mudou de ${formatCents(line.seenPriceCents)} para ` +
          `${formatCents(product.priceCents)}.`,
      );
    }
    const maxQuantity = lineMaximum(product, limits);
    const quantity = Math.min(line.quantity, maxQuantity);
    if (quantity < line.quantity) {
      result.notices.push(
        quantity < product.stockQuantity
          ? `${perOrderLimit(limits, product.name)}; a quantidade no seu carrinho foi ajustada.`
          : `Só temos ${units(product.stockQuantity)} de “${product.name}” em estoque; ` +
              'a quantidade no seu carrinho foi ajustada.',
      );
    }
    result.lines.push({
      productId: product.id,
      quantity,
      seenPriceCents: product.priceCents,
      seenName: seenName(product.name),
    });
    result.priced.push({
      productId: product.id,
      name: product.name,
      slug: product.slug,
      imageUrl: product.imageUrl,
      categoryId: product.categoryId,
      categoryName: product.categoryName,
      unitPriceCents: product.priceCents,
      quantity,
      lineTotalCents: product.priceCents * quantity,
      maxQuantity,
    });
  }
  return result;
}

function sameLines(a: readonly CartLine[], b: readonly CartLine[]): boolean {
  return (
    a.length === b.length &&
    a.every(
      (line, index) =>
        line.productId === b[index]!.productId &&
        line.quantity === b[index]!.quantity &&
        line.seenPriceCents === b[index]!.seenPriceCents &&
        line.seenName === b[index]!.seenName,
    )
  );
}

/**
 * Prices the cart from the database (one query), correcting what changed since it was filled,
 * through the one pricing pipeline with the shopper's choices (payment method, coupon).
 */
export async function priceCart(
  db: Db,
  lines: readonly CartLine[],
  settings: PricingSettings,
  choices: PricingChoices,
): Promise<PricedCart> {
  const products = await lookupProducts(
    db,
    lines.map((line) => line.productId),
  );
  return priceLines(lines, products, settings, choices);
}

function priceLines(
  lines: readonly CartLine[],
  products: ProductSummary[],
  settings: PricingSettings,
  choices: PricingChoices,
): PricedCart {
  const { lines: corrected, priced, notices } = reconcile(lines, products, settings);
  return {
    ...priceOrder(priced, settings, choices),
    lines: priced,
    notices,
    itemCount: countUnits(corrected),
    corrected,
    changed: !sameLines(lines, corrected),
  };
}

/** What a page's loader has of its request's load context. */
export interface RequestScope {
  db: Db;
}

export function countUnits(lines: readonly CartLine[]): number {
  return lines.reduce((sum, line) => sum + line.quantity, 0);
}

/**
 * The request's cart priced for a page, and the Set-Cookie header that stores its corrections
 * (undefined when nothing changed): what was corrected is said once, on that page.
 */
export async function priceRequestCart(
  scope: RequestScope,
  request: Request,
  settings: PricingSettings,
  choices: PricingChoices,
): Promise<{
  cart: Omit<PricedCart, 'corrected' | 'changed'>;
  headers?: { 'Set-Cookie': string };
}> {
  const lines = await readCart(request);
  const products = await lookupProducts(
    scope.db,
    lines.map((line) => line.productId),
  );
  const { corrected, changed, ...cart } = priceLines(lines, products, settings, choices);
  if (!changed) return { cart };
  return { cart, headers: { 'Set-Cookie': await cartCookieHeader(corrected) } };
}
