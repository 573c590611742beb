export { putCategory, putProduct } from './catalog.server';
export { getProduct } from './product.server';
export { relatedProducts, RELATED_LIMIT } from './related.server';
export { listProductsByIds } from './by-ids.server';
export { listCategories, listProducts, searchProducts } from './search.server';
export type { CatalogueChanges } from './count-cache.server';
export { lookupProducts, type ProductSummary } from './lookup.server';
export { productCounts } from './product-counts.server';
export { listSitemapProducts } from './sitemap.server';
export { releaseStock, reserveStock, type StockClaim } from './stock.server';
export {
  confirmRestockRequest,
  deleteExpiredRestockRequests,
  findRestockProduct,
  findRestockRequestByToken,
  getRestockAlert,
  issueRestockConfirmation,
  listRestockRequests,
  requestRestockAlert,
  restockFormSchema,
  takeRestockAlerts,
  RESTOCK_CONFIRM_DAYS,
  RESTOCK_RESEND_AFTER_MS,
  type PendingRestockRequest,
  type RestockAlert,
  type RestockConfirmation,
  type RestockForm,
  type RestockProduct,
  type RestockRequestResult,
} from './restock.server';
export {
  createCategory,
  deleteCategory,
  listAdminCategories,
  setCategoryFeatured,
  updateCategory,
  type AdminCategory,
  type CategoryChange,
  type ProductsOfDeleted,
} from './admin-categories.server';
export { listProductOptions, PRODUCT_OPTIONS_LIMIT } from './product-options.server';
export {
  createProduct,
  deleteCatalogRows,
  deleteProduct,
  imageUrlsInUse,
  listAdminProducts,
  updateProduct,
  type ProductValues,
  type SaveProductResult,
} from './admin-products.server';
export { exportProductsCsv, importProductsCsv } from './product-csv.server';
export { categoryActionSchema, productListActionSchema } from './admin-actions.server';
