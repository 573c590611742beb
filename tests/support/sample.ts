import { SAMPLE_CATALOGUE, SAMPLE_PRODUCTS } from '~/flows/sample-store';

/** The sample product whose name starts with `name` (app/flows/sample-store.ts). */
export function sampleProduct(name: string) {
  const product = SAMPLE_PRODUCTS.find((candidate) => candidate.name.startsWith(name));
  if (!product) throw new Error(`No sample product ${name}`);
  return product;
}

/**
 * The page of the sample product whose name starts with `name`, at the slug the database makes
 * from its name (accents dropped, lower case, dashes; the sample names are all different).
 */
export function sampleProductPath(name: string): string {
  const product = SAMPLE_CATALOGUE.find((candidate) => candidate.name.startsWith(name));
  if (!product) throw new Error(`No sample product ${name}`);
  const slug = product.name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `/product/${slug}`;
}

/**
 * How a page asks for a file of public/ (`/sample/logo.svg`): with the build's version of the
 * folder beside it (app/lib/public-files.ts), which tests cannot know in advance.
 */
export function publicFileSrc(path: string): RegExp {
  return new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\?v=[0-9a-f]{12}$`);
}
