import type { Db } from '~/db/database.server';
import { chooseOptions, variantLabel } from '~/modules/catalog';
import { lookupVariants, type VariantSummary } from '~/modules/catalog/index.server';

import { seenName } from './cookie.server';
import type { CartIntent } from './intent';
import {
  countUnits,
  lineMaximum,
  perOrderLimit,
  reconcile,
  VariantIndex,
  variantsWanted,
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
  | { ok: false; status: 400 | 404 | 409; error: string };

type Change = Omit<Extract<CartUpdate, { ok: true }>, 'count'> | Extract<CartUpdate, { ok: false }>;

type LineIntent = Exclude<CartIntent, { intent: 'clear' }>;

function notFound(): Change {
  return { ok: false, status: 404, error: 'Produto não encontrado.' };
}

function soldOut(variant: VariantSummary): Change {
  return { ok: false, status: 409, error: `O produto “${variantLabel(variant)}” está esgotado.` };
}

function cappedMessage(variant: VariantSummary, quantity: number, limits: LineLimits): string {
  const stock = variant.stockQuantity;
  const label = variantLabel(variant);
  if (quantity >= stock) {
    const units = stock === 1 ? 'unidade' : 'unidades';
    return `Só temos ${stock} ${units} de “${label}” em estoque; seu carrinho ficou com ${quantity}.`;
  }
  return `${perOrderLimit(limits, label)}; seu carrinho ficou com ${quantity}.`;
}

/**
 * Puts `quantity` units of the variant in the cart (at most the stock and the store's limit),
 * keeping its place.
 */
function putLine(
  lines: readonly CartLine[],
  index: VariantIndex,
  variant: VariantSummary,
  wanted: number,
  message: string,
  limits: LineLimits,
): Change {
  if (variant.stockQuantity <= 0) return soldOut(variant);
  const isThis = (line: CartLine) => index.line(line)?.id === variant.id;
  const existing = lines.some(isThis);
  if (!existing && lines.length >= MAX_CART_LINES) {
    return {
      ok: false,
      status: 409,
      error: `Seu carrinho já tem ${MAX_CART_LINES} produtos diferentes. Finalize esta compra ou remova algum item.`,
    };
  }
  const quantity = Math.min(wanted, lineMaximum(variant, limits));
  const capped = quantity < wanted;
  const next: CartLine[] = existing
    ? lines.map((line) =>
        isThis(line)
          ? { ...line, productId: variant.productId, variantId: variant.id, quantity }
          : line,
      )
    : [
        ...lines,
        {
          productId: variant.productId,
          variantId: variant.id,
          quantity,
          seenPriceCents: variant.priceCents,
          seenName: seenName(variantLabel(variant)),
        },
      ];
  return {
    ok: true,
    lines: next,
    capped,
    message: capped ? cappedMessage(variant, quantity, limits) : message,
  };
}

/** What the form names: its variant, or the one variant of the product it names. */
function target(
  intent: LineIntent,
  index: VariantIndex,
): { variant?: VariantSummary; refusal?: Change } {
  if (intent.variantId !== undefined) {
    const variant = index.variant(intent.variantId);
    // A variant of another product than the form says is no line of this cart.
    if (variant && intent.productId !== undefined && variant.productId !== intent.productId) {
      return {};
    }
    return { variant };
  }
  const variants = index.ofProduct(intent.productId!);
  // Only an addition must choose: a line from before variants is its product's first variant.
  if (variants.length > 1 && (intent.intent === 'add' || intent.intent === 'buy')) {
    return { refusal: { ok: false, status: 400, error: chooseOptions(variants[0]!.options) } };
  }
  return { variant: variants[0] };
}

function change(
  lines: readonly CartLine[],
  intent: LineIntent,
  index: VariantIndex,
  limits: LineLimits,
): Change {
  const { variant, refusal } = target(intent, index);
  if (refusal) return refusal;
  const remove = (): Change => ({
    ok: true,
    lines: lines.filter((line) =>
      variant
        ? index.line(line)?.id !== variant.id
        : (line.variantId ?? line.productId) !== (intent.variantId ?? intent.productId),
    ),
    capped: false,
    message: variant
      ? `“${variantLabel(variant)}” foi removido do seu carrinho.`
      : 'O produto foi removido do seu carrinho.',
  });
  switch (intent.intent) {
    case 'remove':
      return remove();
    case 'set':
      if (intent.quantity === 0) return remove();
      if (!variant) return notFound();
      return putLine(
        lines,
        index,
        variant,
        intent.quantity,
        `Quantidade de “${variantLabel(variant)}” atualizada para ${intent.quantity}.`,
        limits,
      );
    case 'add':
    case 'buy': {
      if (!variant) return notFound();
      const inCart = lines.find((line) => index.line(line)?.id === variant.id)?.quantity ?? 0;
      return putLine(
        lines,
        index,
        variant,
        inCart + intent.quantity,
        `“${variantLabel(variant)}” foi adicionado ao seu carrinho.`,
        limits,
      );
    }
  }
}

/**
 * Applies one cart action to the lines read from the cookie. Prices and stock come from the
 * database (one query for the variant and the rest of the cart); the other lines are left as
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
  const wanted = variantsWanted(lines);
  if (intent.variantId !== undefined) wanted.variantIds.push(intent.variantId);
  else wanted.productIds.push(intent.productId!);
  const index = new VariantIndex(await lookupVariants(db, wanted));
  const result = change(lines, intent, index, limits);
  if (!result.ok) return result;
  return { ...result, count: countUnits(reconcile(result.lines, index, limits).lines) };
}
