import { absoluteUrl, type JsonLdSettings } from './seo';

// Apart from seo.ts, whose meta every storefront page runs in the browser: only the product
// page's meta needs this.

/** Cents as the decimal string schema.org and Open Graph expect: 123456 → "1234.56". */
export function decimalPrice(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** What a product's JSON-LD says: the catalogue's product with its page's path. */
export interface ProductForJsonLd {
  id: string;
  name: string;
  description: string;
  imageUrls: string[];
  stockQuantity: number;
  category: { name: string } | null;
  path: string;
  /** The maker's brand; '' : the store's name (as the feeds say). */
  brand: string;
  /** The product's options ('Tamanho', 'Cor'), in the order of each variant's values. */
  options: readonly { name: string }[];
  variants: readonly VariantForJsonLd[];
}

/** One variant of a product, its price already resolved (pricing's rule, in the catalogue's query). */
export interface VariantForJsonLd {
  sku: string;
  values: readonly string[];
  priceCents: number;
  stockQuantity: number;
  imageUrls: readonly string[];
  gtin: string;
  mpn: string;
}

/** The schema.org properties search engines read a variant's option as, by the option's name. */
const VARIES_BY: Record<string, string> = {
  tamanho: 'size',
  cor: 'color',
  material: 'material',
  estampa: 'pattern',
};

function variesByProperty(optionName: string): string | undefined {
  const folded = optionName.normalize('NFD').replace(/\p{M}/gu, '').trim().toLowerCase();
  return VARIES_BY[folded];
}

/**
 * schema.org Product for a product page, with the store as brand and seller; a ProductGroup
 * with one Product and Offer per variant when the product has several.
 */
export function productJsonLd(
  product: ProductForJsonLd,
  rating: { average: number; count: number } | null,
  settings: Pick<JsonLdSettings, 'store_name'>,
  origin: string,
) {
  const url = `${origin}${product.path}`;
  const store = { '@type': 'Organization', name: settings.store_name };
  const offer = (offerUrl: string, priceCents: number, stock: number) => ({
    '@type': 'Offer',
    url: offerUrl,
    price: decimalPrice(priceCents),
    priceCurrency: 'BRL',
    availability: stock > 0 ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
    seller: store,
  });
  const images = (urls: readonly string[]) => urls.map((image) => absoluteUrl(origin, image));
  const common = {
    name: product.name,
    description: product.description,
    image: images(product.imageUrls),
    url,
    ...(product.category ? { category: product.category.name } : {}),
    brand: { '@type': 'Brand', name: product.brand || settings.store_name },
    // Only ratings shoppers actually gave: never a made-up aggregate.
    ...(rating && rating.count > 0
      ? {
          aggregateRating: {
            '@type': 'AggregateRating',
            ratingValue: rating.average,
            reviewCount: rating.count,
            bestRating: 5,
            worstRating: 1,
          },
        }
      : {}),
  };
  // The codes the feeds give each variant (/feeds/google.xml): the same item to Google.
  const codes = (variant: VariantForJsonLd) => ({
    ...(variant.gtin ? { gtin: variant.gtin } : {}),
    ...(variant.mpn ? { mpn: variant.mpn } : {}),
  });
  if (product.variants.length < 2) {
    return {
      '@context': 'https://schema.org',
      '@type': 'Product',
      ...common,
      sku: product.variants[0]!.sku,
      ...codes(product.variants[0]!),
      // Its one variant's price, already resolved (the database keeps every product one).
      offers: offer(url, product.variants[0]!.priceCents, product.stockQuantity),
    };
  }
  const properties = product.options.map((option) => variesByProperty(option.name));
  return {
    '@context': 'https://schema.org',
    '@type': 'ProductGroup',
    ...common,
    productGroupID: product.id,
    variesBy: product.options.map((option, index) =>
      properties[index] ? `https://schema.org/${properties[index]}` : option.name,
    ),
    hasVariant: product.variants.map((variant) => {
      const variantUrl = `${url}?variante=${encodeURIComponent(variant.sku)}`;
      const values = product.options.map((option, index) => ({
        name: option.name,
        value: variant.values[index] ?? '',
        property: properties[index],
      }));
      const others = values.filter((value) => !value.property);
      return {
        '@type': 'Product',
        name: `${product.name} (${values.map((value) => value.value).join(', ')})`,
        sku: variant.sku,
        ...codes(variant),
        url: variantUrl,
        image: images(variant.imageUrls.length > 0 ? variant.imageUrls : product.imageUrls),
        ...Object.fromEntries(
          values.flatMap((value) => (value.property ? [[value.property, value.value]] : [])),
        ),
        ...(others.length > 0
          ? {
              additionalProperty: others.map((value) => ({
                '@type': 'PropertyValue',
                name: value.name,
                value: value.value,
              })),
            }
          : {}),
        offers: offer(variantUrl, variant.priceCents, variant.stockQuantity),
      };
    }),
  };
}
