/** A product's page: its slug, the address search engines and shared links use. */
export function productPath(product: { slug: string }): string {
  return `/product/${encodeURIComponent(product.slug)}`;
}

/** The catalogue filtered by one category, by its slug. */
export function categoryPath(category: { slug: string }): string {
  return `/products?categoria=${encodeURIComponent(category.slug)}`;
}
