export type { CategoryRecord, Product, ProductRecord } from './types';
