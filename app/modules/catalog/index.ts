export {
  catalogSearch,
  formatReais,
  lastPageNotice,
  pageWindow,
  parseCatalogParams,
  SORT_LABELS,
  SORT_PARAMS,
  type CatalogParams,
  type CatalogView,
} from './catalog-params';
export type {
  CatalogPage,
  CatalogQuery,
  CatalogSort,
  Category,
  CategoryRecord,
  Product,
  ProductRecord,
} from './types';
