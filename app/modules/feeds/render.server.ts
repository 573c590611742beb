import { stringify } from 'csv-stringify/sync';

import { decimalPrice } from '~/lib/product-json-ld';
import { absoluteUrl } from '~/lib/seo';
import { variantPath } from '~/modules/catalog';

import type { FeedProduct, FeedVariant } from '~/modules/catalog';

/** What a feed says of the store beside its items. */
export interface FeedStore {
  /** The store's public origin: every address in a feed is absolute. */
  origin: string;
  name: string;
  description: string;
  /**
   * Shipping for an item of this price by the store's own rule, or null when carriers quote
   * it (the channels then take the merchant's shipping settings in their own consoles).
   */
  shippingCents: ((priceCents: number) => number) | null;
}

/** A channel's view of one variant: the fields both feeds share, already in their words. */
interface FeedItem {
  id: string;
  groupId: string;
  title: string;
  description: string;
  link: string;
  imageLink: string;
  additionalImageLinks: string[];
  inStock: boolean;
  /** 'Preço de' when above the price, else the price (`price` in both channels' words). */
  priceCents: number;
  salePriceCents: number | null;
  condition: string;
  brand: string;
  gtin: string;
  mpn: string;
  googleProductCategory: string;
  productType: string;
  size: string;
  color: string;
  shippingCents: number | null;
}

/** Google's limits: 150 characters of title, 5,000 of description, 10 more pictures. */
const LIMITS = { title: 150, description: 5000, additionalImages: 10 } as const;

/** Cents as both channels write a price: 12990 → "129.90 BRL". */
export function feedPrice(cents: number): string {
  return `${decimalPrice(cents)} BRL`;
}

function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').trim().toLowerCase();
}

/** Plain text on one line, as the channels show a description. */
function plain(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat;
}

/** What every variant of a product shares, worked out once per product. */
interface ProductPart {
  groupId: string;
  description: string;
  brand: string;
  pictures: string[];
}

function productPart(product: FeedProduct, store: FeedStore): ProductPart {
  return {
    groupId: product.variants.length > 1 ? product.id : '',
    description: plain(product.description || product.name, LIMITS.description),
    brand: product.brand || store.name,
    pictures: product.imageUrls.map((url) => absoluteUrl(store.origin, url)),
  };
}

function feedItem(
  product: FeedProduct,
  shared: ProductPart,
  variant: FeedVariant,
  store: FeedStore,
): FeedItem {
  const valueOf = (option: string) =>
    variant.options.find((entry) => fold(entry.name) === option)?.value ?? '';
  const pictures =
    variant.imageUrls.length > 0
      ? variant.imageUrls.map((url) => absoluteUrl(store.origin, url))
      : shared.pictures;
  const values = variant.options.map((option) => option.value).join(' / ');
  const onSale =
    variant.compareAtPriceCents !== null && variant.compareAtPriceCents > variant.priceCents;
  return {
    id: variant.sku,
    groupId: shared.groupId,
    title: plain(values ? `${product.name} — ${values}` : product.name, LIMITS.title),
    description: shared.description,
    link: `${store.origin}${variantPath({ slug: product.slug, sku: variant.sku, options: variant.options })}`,
    imageLink: pictures[0] ?? '',
    additionalImageLinks: pictures.slice(1, 1 + LIMITS.additionalImages),
    inStock: variant.stockQuantity > 0,
    priceCents: onSale ? variant.compareAtPriceCents! : variant.priceCents,
    salePriceCents: onSale ? variant.priceCents : null,
    condition: product.condition,
    brand: shared.brand,
    gtin: variant.gtin,
    mpn: variant.mpn,
    googleProductCategory: product.googleProductCategory,
    productType: product.category ?? '',
    size: valueOf('tamanho'),
    color: valueOf('cor'),
    shippingCents: store.shippingCents ? store.shippingCents(variant.priceCents) : null,
  };
}

/** Each variant of each product, as the channels' items. */
function* feedItems(products: readonly FeedProduct[], store: FeedStore): Generator<FeedItem> {
  for (const product of products) {
    const shared = productPart(product, store);
    for (const variant of product.variants) yield feedItem(product, shared, variant, store);
  }
}

// XML 1.0 allows no control characters but tab and line breaks, even escaped.
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

function xml(text: string): string {
  return text.replace(NOT_XML, '').replace(/[&<>"']/g, (char) => ENTITIES[char]!);
}

function tag(name: string, value: string): string {
  return value ? `<g:${name}>${xml(value)}</g:${name}>` : '';
}

/**
 * The Google Merchant Center feed: RSS 2.0 with Google's namespace, one item per variant
 * (https://support.google.com/merchants/answer/7052112).
 */
export function googleFeedXml(products: readonly FeedProduct[], store: FeedStore): string {
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    '<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0">\n<channel>\n',
    `<title>${xml(store.name)}</title>\n<link>${xml(store.origin)}/</link>\n`,
    `<description>${xml(plain(store.description || store.name, LIMITS.description))}</description>\n`,
  ];
  // A product's variants come together and share its description: escaped once for them all.
  let description = { text: '', tag: '' };
  for (const item of feedItems(products, store)) {
    if (item.description !== description.text) {
      description = { text: item.description, tag: tag('description', item.description) };
    }
    parts.push(
      '<item>',
      tag('id', item.id),
      tag('item_group_id', item.groupId),
      tag('title', item.title),
      description.tag,
      tag('link', item.link),
      tag('image_link', item.imageLink),
      ...item.additionalImageLinks.map((link) => tag('additional_image_link', link)),
      tag('availability', item.inStock ? 'in_stock' : 'out_of_stock'),
      tag('price', feedPrice(item.priceCents)),
      item.salePriceCents === null ? '' : tag('sale_price', feedPrice(item.salePriceCents)),
      tag('condition', item.condition),
      tag('brand', item.brand),
      tag('gtin', item.gtin),
      tag('mpn', item.mpn),
      item.gtin || item.mpn ? '' : tag('identifier_exists', 'no'),
      tag('google_product_category', item.googleProductCategory),
      tag('product_type', item.productType),
      tag('size', item.size),
      tag('color', item.color),
      item.shippingCents === null
        ? ''
        : `<g:shipping><g:country>BR</g:country><g:price>${feedPrice(item.shippingCents)}</g:price></g:shipping>`,
      '</item>\n',
    );
  }
  parts.push('</channel>\n</rss>\n');
  return parts.join('');
}

/** Meta Commerce Manager's columns, in its words (https://www.facebook.com/business/help/120325381656392). */
export const META_COLUMNS = [
  'id',
  'title',
  'description',
  'availability',
  'condition',
  'price',
  'link',
  'image_link',
  'brand',
  'item_group_id',
  'sale_price',
  'gtin',
  'size',
  'color',
] as const;

/** The Meta catalogue feed: CSV with Meta's columns, one row per variant. */
export function metaFeedCsv(products: readonly FeedProduct[], store: FeedStore): string {
  const rows = Array.from(feedItems(products, store), (item) => {
    return [
      item.id,
      item.title,
      item.description,
      item.inStock ? 'in stock' : 'out of stock',
      item.condition,
      feedPrice(item.priceCents),
      item.link,
      item.imageLink,
      item.brand,
      item.groupId,
      item.salePriceCents === null ? '' : feedPrice(item.salePriceCents),
      item.gtin,
      item.size,
      item.color,
    ];
  });
  return stringify(rows, { header: true, columns: [...META_COLUMNS] });
}
