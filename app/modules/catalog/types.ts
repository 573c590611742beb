import type { categories, products } from './schema';

type WithId<T> = Omit<T, 'id'> & { id: string };

export type CategoryRecord = WithId<typeof categories.$inferInsert>;

/** `imageUrls` is ordered; the first is the main image. */
export type ProductRecord = WithId<typeof products.$inferInsert>;

export type Product = typeof products.$inferSelect & {
  category: Category | null;
};

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
