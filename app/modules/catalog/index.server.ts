export { listProducts, putCategory, putProduct } from './catalog.server';
export { getProduct } from './product.server';
