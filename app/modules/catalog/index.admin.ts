// The admin's door: the category and product forms, the product list and CSV (ADR 021).
export {
  CATEGORY_DESCRIPTION_MAX,
  CATEGORY_MESSAGES,
  CATEGORY_NAME_MAX,
  categoryFormSchema,
  productCountSentence,
} from './category-form';
export {
  combinationKey,
  generateVariants,
  VARIANT_LIMITS,
  VARIANT_MESSAGES,
  type VariantCell,
  type VariantDraft,
} from './admin-variants';
export type { ProductOption } from './schema';
export { adminProductListPath, LOW_STOCK_MAX, parseAdminProductParams } from './admin-product-list';
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
  PRODUCT_CSV_COLUMNS,
  PRODUCT_CSV_LIMITS,
  PRODUCT_CSV_MESSAGES,
  type ProductImportResult,
} from './product-csv';
export {
  IDENTIFIER_MAX_LENGTH,
  IDENTIFIER_MESSAGES,
  PRODUCT_CONDITION_LABELS,
  PRODUCT_CONDITIONS,
  type ProductCondition,
} from './product-identifiers';
