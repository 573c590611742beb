import { SAMPLE_PRODUCTS } from '~/flows/sample-store';

/** The sample product whose name starts with `name` (app/flows/sample-store.ts). */
export function sampleProduct(name: string) {
  const product = SAMPLE_PRODUCTS.find((candidate) => candidate.name.startsWith(name));
  if (!product) throw new Error(`No sample product ${name}`);
  return product;
}
