export {
  CATALOGUE_MAX_PAGE,
  catalogSearch,
  defaultSort,
  formatReais,
  OPTION_PARAM,
  optionParam,
  pageNotice,
  parseCatalogParams,
  SORT_LABELS,
  SORT_PARAMS,
  sortOptions,
  type CatalogParams,
  type CatalogView,
} from './catalog-params';
export { categoryPath, productPath } from './paths';
export { chooseOptions, variantLabel, variantPath, variantValues } from './variant-label';
export type { VariantOptionValue } from './schema';
export {
  chooseVariant,
  compareAtPrice,
  optionPickers,
  VARIANT_PARAM,
  variantImages,
  type OptionPicker,
  type PageVariant,
  type ProductWithVariants,
  type ValueChoice,
} from './variant-choice';
export type {
  CatalogPage,
  CatalogQuery,
  Category,
  CategoryRecord,
  FeedProduct,
  FeedVariant,
  ListQuery,
  OptionFacet,
  OptionFilter,
  Product,
  ProductCardSummary,
  ProductOptions,
  ProductRecord,
  VariantRecord,
} from './types';
export {
  RESTOCK_CONFIRM_MESSAGES,
  RESTOCK_CONFIRM_PARAM,
  RESTOCK_CONFIRM_PATH,
  RESTOCK_EMAIL_MAX,
  RESTOCK_MESSAGES,
  RESTOCK_NOTICE_PARAM,
  RESTOCK_NOTICES,
  restockCountSentence,
  restockUnconfirmedSentence,
  type RestockRequestSummary,
} from './restock';
