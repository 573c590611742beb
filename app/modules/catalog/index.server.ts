export { listProducts, putCategory, putProduct } from './catalog.server';
