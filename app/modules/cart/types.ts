import type { FormReply } from '~/lib/form';
import type { VariantOptionValue } from '~/modules/catalog';
import type { PricedOrder } from '~/modules/pricing';

/** One variant in the shopper's cart, as kept in the cart cookie. */
export interface CartLine {
  /** '' when the cookie had no room for it: the variant names its product. */
  productId: string;
  /** Null for a line of a cookie from before variants: the product's first variant. */
  variantId: string | null;
  quantity: number;
  /** The server's price when the shopper added the product, to tell them if it changed since. */
  seenPriceCents: number;
  /**
   * The product's name when last seen (shortened), so a product deleted since can still be named
   * in the notice. Empty when the cookie had no room for names.
   */
  seenName: string;
}

/** A cart line priced from the database: one variant of a product. */
export interface PricedLine {
  productId: string;
  variantId: string;
  sku: string;
  /** The variant's value of each of the product's options; empty for a product without options. */
  options: VariantOptionValue[];
  /** The product's name. */
  name: string;
  slug: string;
  /** The variant's first picture, else the product's. */
  imageUrl: string | null;
  categoryId: string | null;
  categoryName: string | null;
  unitPriceCents: number;
  quantity: number;
  lineTotalCents: number;
  /** The most this line may hold: the stock, at most the store's `max_quantity_per_item`. */
  maxQuantity: number;
}

/** The cart's lines priced from the database, and its money from the pricing pipeline. */
export interface PricedCart extends PricedOrder {
  lines: PricedLine[];
  /** What was corrected since the shopper last saw the cart, in pt-BR. */
  notices: string[];
  itemCount: number;
  /** The lines after the corrections, to be written back to the cookie. */
  corrected: CartLine[];
  /** True when `corrected` differs from the lines read from the cookie. */
  changed: boolean;
}

/** Most distinct variants in one cart: keeps the cookie under the browsers' 4 KB limit. */
export const MAX_CART_LINES = 50;
/**
 * Most units of one product a cart cookie or form may name: a bound on the input's shape. The
 * store's own limit (`max_quantity_per_item`, at most 999) then caps what a line holds.
 */
export const MAX_LINE_QUANTITY = 9999;

/** What a POST to /cart answers (when it does not redirect): the toast says what happened. */
export type CartReply = FormReply<{
  /** Units in the cart afterwards, as the header badge counts them. */
  count: number;
  /** True when the shopper got fewer units than asked for. */
  capped: boolean;
}>;
