export {
  CATALOGUE_MAX_PAGE,
  catalogSearch,
  defaultSort,
  formatReais,
  pageNotice,
  pageWindow,
  parseCatalogParams,
  SORT_LABELS,
  SORT_PARAMS,
  sortOptions,
  type CatalogParams,
  type CatalogState,
  type CatalogView,
} from './catalog-params';
export { categoryPath, productPath } from './paths';
export type {
  CatalogPage,
  CatalogQuery,
  CatalogSort,
  Category,
  CategoryRecord,
  ListQuery,
  Product,
  ProductOptions,
  ProductRecord,
} from './types';
export {
  CATEGORY_DESCRIPTION_MAX,
  CATEGORY_MESSAGES,
  CATEGORY_NAME_MAX,
  categoryDeleteSchema,
  categoryFeaturedSchema,
  categoryFormSchema,
  productCountSentence,
} from './category-form';
export {
  ADMIN_PRODUCTS_PER_PAGE,
  adminProductListPath,
  parseAdminPage,
  parseAdminProductParams,
} from './admin-product-list';
export {
  isAllowedImageUrl,
  parsePriceText,
  parseStockText,
  PRODUCT_FORM_REPEATABLE,
  PRODUCT_LIMITS,
  PRODUCT_LIST_PATH,
  PRODUCT_MESSAGES,
  productFormSchema,
  productListReturnPath,
  splitImageUrls,
  type ProductForm,
  type ProductFormReply,
} from './product-form';
export {
  IMAGE_SEPARATOR,
  PRODUCT_CSV_COLUMNS,
  PRODUCT_CSV_LIMITS,
  PRODUCT_CSV_MESSAGES,
  type ProductCsvProblem,
  type ProductImportResult,
} from './product-csv';
export {
  RESTOCK_CONFIRM_MESSAGES,
  RESTOCK_CONFIRM_PARAM,
  RESTOCK_CONFIRM_PATH,
  RESTOCK_EMAIL_MAX,
  RESTOCK_LIST_LIMIT,
  RESTOCK_MESSAGES,
  RESTOCK_NOTICE_PARAM,
  RESTOCK_NOTICES,
  restockCountSentence,
  restockUnconfirmedSentence,
  type RestockReply,
  type RestockRequestItem,
  type RestockRequestSummary,
} from './restock';
