export { putCategory, putProduct } from './catalog.server';
export { getProduct } from './product.server';
export { listCategories, searchProducts } from './search.server';
export { lookupProducts, type ProductSummary } from './lookup.server';
export { listSitemapProducts } from './sitemap.server';
export { releaseStock, reserveStock, type StockClaim } from './stock.server';
