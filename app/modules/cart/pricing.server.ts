import type { Db } from '~/db/database.server';
import { formatCents } from '~/lib/money';
import { countOf } from '~/lib/plural';
import { variantLabel } from '~/modules/catalog';
import { lookupVariants, type VariantSummary } from '~/modules/catalog/index.server';
import {
  lineTotalCents,
  priceOrder,
  type PricingChoices,
  type PricingRules,
} from '~/modules/pricing';
import type { StoreSettings } from '~/modules/settings';

import { cartCookieHeader, readCart, seenName } from './cookie.server';
import type { CartLine, PricedCart, PricedLine } from './types';

/** What limits a cart line: the store's most units of one variant per order. */
export type LineLimits = Pick<StoreSettings, 'max_quantity_per_item'>;

/** What pricing a cart reads from the settings: the pipeline's rules and the line limit. */
export type PricingSettings = PricingRules & LineLimits;

/** The most units of this variant one line may hold now: the stock, at most the store's limit. */
export function lineMaximum(variant: VariantSummary, limits: LineLimits): number {
  return Math.min(variant.stockQuantity, limits.max_quantity_per_item);
}

function units(count: number): string {
  return countOf(count, 'unidade', 'unidades');
}

/** The store's limit per line, said of one variant. */
export function perOrderLimit(limits: LineLimits, label: string): string {
  return `Cada pedido pode ter até ${units(limits.max_quantity_per_item)} de “${label}”`;
}

/** What to ask the database for to price these lines (see resolveLine). */
export function variantsWanted(lines: readonly CartLine[]): {
  variantIds: string[];
  productIds: string[];
} {
  return {
    variantIds: lines.flatMap((line) => (line.variantId === null ? [] : [line.variantId])),
    productIds: lines.flatMap((line) => (line.variantId === null ? [line.productId] : [])),
  };
}

/** Finds lines' variants among those looked up (lookupVariants answers in product order). */
export class VariantIndex {
  private readonly byId = new Map<string, VariantSummary>();
  private readonly byProduct = new Map<string, VariantSummary[]>();

  constructor(variants: readonly VariantSummary[]) {
    for (const variant of variants) {
      this.byId.set(variant.id, variant);
      const siblings = this.byProduct.get(variant.productId) ?? [];
      siblings.push(variant);
      this.byProduct.set(variant.productId, siblings);
    }
  }

  variant(id: string): VariantSummary | undefined {
    return this.byId.get(id);
  }

  /** The product's variants, in their order, when they were looked up by product. */
  ofProduct(productId: string): VariantSummary[] {
    return this.byProduct.get(productId) ?? [];
  }

  /** The line's variant: its own, or for a line from before variants its product's first. */
  line(line: Pick<CartLine, 'productId' | 'variantId'>): VariantSummary | undefined {
    if (line.variantId !== null) return this.byId.get(line.variantId);
    return this.ofProduct(line.productId)[0];
  }
}

export interface Reconciled {
  /** The lines still in the cart, at today's price and at most the stock. */
  lines: CartLine[];
  priced: PricedLine[];
  notices: string[];
}

/** Checks the lines against the variants as they are now, and says what had to change. */
export function reconcile(
  lines: readonly CartLine[],
  variants: VariantIndex,
  limits: LineLimits,
): Reconciled {
  const result: Reconciled = { lines: [], priced: [], notices: [] };
  const seen = new Set<string>();
  for (const line of lines) {
    const variant = variants.line(line);
    if (!variant) {
      result.notices.push(
        line.seenName
          ? `O produto “${line.seenName}” não está mais disponível e foi removido do seu carrinho.`
          : 'Um produto do seu carrinho não está mais disponível e foi removido.',
      );
      continue;
    }
    // A line from before variants and a line of its product's first variant are one line.
    if (seen.has(variant.id)) continue;
    seen.add(variant.id);
    const label = variantLabel(variant);
    if (variant.stockQuantity <= 0) {
      result.notices.push(`O produto “${label}” esgotou e foi removido do seu carrinho.`);
      continue;
    }
    if (variant.priceCents !== line.seenPriceCents) {
      result.notices.push(
        `O preço de “${label}” mudou de ${formatCents(line.seenPriceCents)} para ` +
          `${formatCents(variant.priceCents)}.`,
      );
    }
    const maxQuantity = lineMaximum(variant, limits);
    const quantity = Math.min(line.quantity, maxQuantity);
    if (quantity < line.quantity) {
      result.notices.push(
        quantity < variant.stockQuantity
          ? `${perOrderLimit(limits, label)}; a quantidade no seu carrinho foi ajustada.`
          : `Só temos ${units(variant.stockQuantity)} de “${label}” em estoque; ` +
              'a quantidade no seu carrinho foi ajustada.',
      );
    }
    result.lines.push({
      productId: variant.productId,
      variantId: variant.id,
      quantity,
      seenPriceCents: variant.priceCents,
      seenName: seenName(label),
    });
    result.priced.push({
      productId: variant.productId,
      variantId: variant.id,
      sku: variant.sku,
      options: variant.options,
      name: variant.name,
      slug: variant.slug,
      imageUrl: variant.imageUrl,
      categoryId: variant.categoryId,
      categoryName: variant.categoryName,
      unitPriceCents: variant.priceCents,
      quantity,
      lineTotalCents: lineTotalCents(variant.priceCents, quantity),
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
        line.variantId === b[index]!.variantId &&
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
  const variants = await lookupVariants(db, variantsWanted(lines));
  return priceLines(lines, new VariantIndex(variants), settings, choices);
}

function priceLines(
  lines: readonly CartLine[],
  variants: VariantIndex,
  settings: PricingSettings,
  choices: PricingChoices,
): PricedCart {
  const { lines: corrected, priced, notices } = reconcile(lines, variants, settings);
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
  const variants = await lookupVariants(scope.db, variantsWanted(lines));
  const { corrected, changed, ...cart } = priceLines(
    lines,
    new VariantIndex(variants),
    settings,
    choices,
  );
  if (!changed) return { cart };
  return { cart, headers: { 'Set-Cookie': await cartCookieHeader(corrected) } };
}
