// The admin's server door: editing categories and products, their CSV and options (ADR 021).
export {
  createCategory,
  deleteCategory,
  listAdminCategories,
  setCategoryFeatured,
  updateCategory,
  type CategoryChange,
} from './admin-categories.server';
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
export { variantDrafts, variantStock } from './admin-variants.server';
export { exportProductsCsv, importProductsCsv } from './product-csv.server';
export { listProductOptions, PRODUCT_OPTIONS_LIMIT } from './product-options.server';
export { categoryActionSchema, productListActionSchema } from './admin-actions.server';
