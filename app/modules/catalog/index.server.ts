export { putCategory, putProduct, putProductWithVariants } from './catalog.server';
export { getProduct, getProductWithVariants } from './product.server';
export { relatedProducts } from './related.server';
export { listProductsByIds } from './by-ids.server';
export { listCategories, listProducts, optionFacets, searchProducts } from './search.server';
export { suggestSearch } from './suggest.server';
export type { CatalogueChanges } from './count-cache.server';
export { lockExistingCatalogIds, lookupVariants, type VariantSummary } from './lookup.server';
export { hasProductInStock, productCounts } from './product-counts.server';
export { listSitemapProducts } from './sitemap.server';
export { releaseStock, stockClaimParts } from './stock.server';
export {
  confirmRestockRequest,
  deleteExpiredRestockRequests,
  deleteRestockRequestsOfEmail,
  findRestockProduct,
  findRestockRequestByToken,
  getRestockAlert,
  issueRestockConfirmation,
  listRestockRequests,
  requestRestockAlert,
  restockRequestsOfEmail,
  restockFormSchema,
  RESTOCK_RESEND_AFTER_MS,
  type PendingRestockRequest,
  type RestockForm,
  type RestockProduct,
  type RestockRequestResult,
} from './restock.server';
export {
  alertRestocked,
  RESTOCK_CONFIRM_TOPIC,
  RESTOCK_TOPIC,
  type RestockMailPayload,
} from './restock-outbox.server';
// For another module's read joins (a review beside its product's name); the catalogue's own
// services remain the only code that writes it.
export { products } from './schema';
export { listFeedProducts } from './feed.server';
