import type { ProductCondition } from './product-identifiers';
import type { categories, products, productVariants, VariantOptionValue } from './schema';

type WithId<T> = Omit<T, 'id'> & { id: string };

export type CategoryRecord = WithId<typeof categories.$inferInsert>;

/** `imageUrls` is ordered; the first is the main image. */
export type ProductRecord = WithId<typeof products.$inferInsert>;

/** A variant as written with its product (the product id comes from the product). */
export type VariantRecord = Omit<WithId<typeof productVariants.$inferInsert>, 'productId'>;

export type Product = typeof products.$inferSelect & {
  category: Category | null;
  /** What a card shows of the product's variants (absent where a product was built by hand). */
  card?: ProductCardSummary;
};

/** A product's variants as a card shows them: its lowest price and its first variant's picture. */
export interface ProductCardSummary {
  /** The lowest of its variants' prices ('a partir de' when below `toCents`). */
  fromCents: number;
  /** The highest of its variants' prices. */
  toCents: number;
  /** The 'de' price of the lowest-priced variant, if it has one. */
  compareAtCents: number | null;
  /** How many variants it has: a card adds a product of one variant, the others are chosen on its page. */
  variantCount: number;
  /** The first variant's own first picture; null: the product's. */
  imageUrl: string | null;
}

/**
 * The option values a listing narrows to, by option name ('Tamanho' → ['G', 'GG']): a product
 * matches when one variant in stock has one of the values of every option named.
 */
export type OptionFilter = Record<string, string[]>;

/** One value offered by the listing's option filter, with how many products of the result have it in stock. */
export interface OptionFacetValue {
  value: string;
  count: number;
  selected: boolean;
}

export interface OptionFacet {
  name: string;
  values: OptionFacetValue[];
}

export interface Category {
  id: string;
  name: string;
  slug: string;
}

/** `relevance` ranks the matches of a text search; without one it is the newest first. */
export type CatalogSort = 'relevance' | 'newest' | 'price-asc' | 'price-desc' | 'name';

/** What the shopper asked the catalogue for; every filter is optional. */
export interface CatalogQuery {
  /** Words that must all appear in the name or description, ignoring case and accents. */
  q?: string;
  categoryId?: string;
  minCents?: number;
  maxCents?: number;
  /** Only products with one of these values of each option named in stock. */
  options?: OptionFilter;
  sort?: CatalogSort;
  /** 1-based; a page past the last one gives the last page. */
  page?: number;
  perPage: number;
  /**
   * The deepest page served (the storefront's CATALOGUE_MAX_PAGE): a page is read by skipping
   * every product before it, so an unbounded page number would let one request walk the whole
   * index. Unbounded when absent (the admin's list).
   */
  maxPage?: number;
}

/** What picks and orders products, whatever the paging. */
export type ListQuery = Omit<CatalogQuery, 'page' | 'perPage' | 'maxPage'>;

export interface CatalogPage {
  products: Product[];
  /** Products matching the filters, on every page. */
  total: number;
  /** The page returned, which is the last one when a later page was asked for. */
  page: number;
  /** At least 1, also when nothing matched; never more than the query's `maxPage`. */
  pageCount: number;
}

/** Products offered by a picker in the admin (see listProductOptions). */
export interface ProductOptions {
  options: { id: string; name: string }[];
  /** Every product matching the search: more than `options` holds when the catalogue is big. */
  total: number;
}

/** A product as the shopping channels' feeds list it: its own fields, then each variant's. */
export interface FeedProduct {
  id: string;
  name: string;
  slug: string;
  description: string;
  brand: string;
  googleProductCategory: string;
  condition: ProductCondition;
  category: string | null;
  imageUrls: string[];
  /** In their order; never empty (the database keeps one). */
  variants: FeedVariant[];
}

/** One variant of a FeedProduct. */
export interface FeedVariant {
  sku: string;
  options: VariantOptionValue[];
  /** Pricing's price for the variant (its own, else the product's). */
  priceCents: number;
  compareAtPriceCents: number | null;
  stockQuantity: number;
  imageUrls: string[];
  gtin: string;
  mpn: string;
}
