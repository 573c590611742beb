export { effectivePriceSql } from './unit-price.server';
