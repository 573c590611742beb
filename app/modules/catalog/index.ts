export type {
  CatalogPage,
  CatalogQuery,
  CatalogSort,
  Category,
  CategoryRecord,
  Product,
  ProductRecord,
} from './types';
