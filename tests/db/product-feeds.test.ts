import { parse as parseCsv } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { AppLoadContext } from 'react-router';
import { afterEach, expect, it } from 'vitest';

import { createChangeFeed, type ChangeFeed } from '~/db/changes.server';
import { productVariants } from '~/db/schema';
import { isFeedFile, productFeed } from '~/flows/product-feeds.server';
import { productJsonLd } from '~/lib/product-json-ld';
import { productPath } from '~/modules/catalog';
import {
  getProductWithVariants,
  putCategory,
  putProduct,
  putProductWithVariants,
} from '~/modules/catalog/index.server';
import { META_COLUMNS } from '~/modules/feeds/index.server';
import type { SettingsStore } from '~/modules/settings/index.server';

import { describeDb, openSettingsStore } from '../support/db';
import { until } from '../support/until';

const ORIGIN = 'https://loja.example.com.br';
const CATEGORY = { id: '00000000-0000-4000-8000-00000000c001', name: 'Camisetas' };
const SHIRT = '00000000-0000-4000-8000-000000000001';
const MUG = '00000000-0000-4000-8000-000000000002';

/** A shirt in two sizes and two colours (one sold out, one on sale) and a mug with a GTIN. */
async function stock(db: AppLoadContext['db']) {
  await putCategory(db, { ...CATEGORY, slug: 'camisetas' });
  await putProductWithVariants(
    db,
    {
      id: SHIRT,
      name: 'Camiseta Básica',
      slug: 'camiseta-basica',
      description: 'Algodão <b>orgânico</b>\n\nfeita & vendida no Brasil.',
      priceCents: 7990,
      categoryId: CATEGORY.id,
      imageUrls: ['/media/camiseta-1000.webp', 'https://cdn.example.com/camiseta-2.jpg'],
      options: [
        { name: 'Tamanho', values: [{ name: 'P' }, { name: 'G' }] },
        { name: 'Cor', values: [{ name: 'Azul' }] },
      ],
      brand: 'Malharia Sul',
      googleProductCategory: 'Vestuário e acessórios > Roupas > Camisetas',
    },
    [
      {
        id: '00000000-0000-4000-8000-0000000000a1',
        sku: 'CAM-P-AZUL',
        option1: 'P',
        option2: 'Azul',
        stockQuantity: 0,
        mpn: 'MS-100-P',
      },
      {
        id: '00000000-0000-4000-8000-0000000000a2',
        sku: 'CAM-G-AZUL',
        option1: 'G',
        option2: 'Azul',
        priceCents: 8990,
        compareAtPriceCents: 12990,
        stockQuantity: 4,
        imageUrls: ['/media/camiseta-g-1000.webp'],
      },
    ],
  );
  // A product without options: the database makes its one variant (drizzle/0021).
  await putProduct(db, {
    id: MUG,
    name: 'Caneca',
    slug: 'caneca',
    description: '',
    priceCents: 3500,
    imageUrls: ['/media/caneca-1000.webp'],
    condition: 'refurbished',
  });
  await db
    .update(productVariants)
    .set({ sku: 'CANECA', stockQuantity: 9, gtin: '7891000315507' })
    .where(eq(productVariants.productId, MUG));
}

type Item = Record<string, unknown>;

/** The feed's items as a well-kept XML parser reads them (each g: field by its name). */
function googleItems(xml: string): Map<string, Item> {
  expect(XMLValidator.validate(xml)).toBe(true);
  const parsed = new XMLParser({
    ignoreAttributes: false,
    parseTagValue: false,
    isArray: (name) => name === 'item' || name === 'g:additional_image_link',
  }).parse(xml) as {
    rss: { '@_version': string; '@_xmlns:g': string; channel: { item: Item[]; link: string } };
  };
  expect(parsed.rss['@_version']).toBe('2.0');
  expect(parsed.rss['@_xmlns:g']).toBe('http://base.google.com/ns/1.0');
  expect(parsed.rss.channel.link).toBe(`${ORIGIN}/`);
  return new Map(parsed.rss.channel.item.map((item) => [String(item['g:id']), item]));
}

describeDb('product feeds', ({ database, db }) => {
  const open: { changes?: ChangeFeed; settings?: SettingsStore } = {};
  afterEach(async () => {
    await open.settings?.close();
    await open.changes?.close();
    open.settings = undefined;
    open.changes = undefined;
  });

  async function context(carrier = false): Promise<AppLoadContext> {
    open.changes ??= await createChangeFeed(database());
    open.settings ??= await openSettingsStore(database());
    await until(async () => open.changes!.live() || undefined, 'the change feed');
    return {
      db: db(),
      readDb: db(),
      origin: ORIGIN,
      changes: open.changes,
      settings: open.settings,
      shipping: async () => (carrier ? ({} as never) : null),
    } as unknown as AppLoadContext;
  }

  const text = async (ctx: AppLoadContext, file: 'google.xml' | 'meta.csv') =>
    new TextDecoder().decode((await productFeed(ctx, file)).body);

  it('lists every variant for Google with its group, price, sale, stock and identifiers', async () => {
    await stock(db());
    const ctx = await context();
    await ctx.settings.save({
      store_name: 'Loja da Ana',
      shipping_mode: 'flat_rate',
      default_shipping_cost_cents: 1500,
      free_shipping_threshold_cents: 10000,
    });
    const items = googleItems(await text(ctx, 'google.xml'));
    expect([...items.keys()].sort()).toEqual(['CAM-G-AZUL', 'CAM-P-AZUL', 'CANECA']);

    const small = items.get('CAM-P-AZUL')!;
    expect(small).toMatchObject({
      'g:item_group_id': SHIRT,
      'g:title': 'Camiseta Básica — P / Azul',
      'g:description': 'Algodão <b>orgânico</b> feita & vendida no Brasil.',
      'g:link': `${ORIGIN}/product/camiseta-basica?variante=CAM-P-AZUL`,
      'g:image_link': `${ORIGIN}/media/camiseta-1000.webp`,
      'g:additional_image_link': ['https://cdn.example.com/camiseta-2.jpg'],
      'g:availability': 'out_of_stock',
      'g:price': '79.90 BRL',
      'g:condition': 'new',
      'g:brand': 'Malharia Sul',
      'g:mpn': 'MS-100-P',
      'g:google_product_category': 'Vestuário e acessórios > Roupas > Camisetas',
      'g:product_type': 'Camisetas',
      'g:size': 'P',
      'g:color': 'Azul',
      'g:shipping': { 'g:country': 'BR', 'g:price': '15.00 BRL' },
    });
    expect(small).not.toHaveProperty('g:sale_price');
    expect(small).not.toHaveProperty('g:gtin');
    expect(small).not.toHaveProperty('g:identifier_exists');

    const large = items.get('CAM-G-AZUL')!;
    expect(large).toMatchObject({
      'g:item_group_id': SHIRT,
      'g:image_link': `${ORIGIN}/media/camiseta-g-1000.webp`,
      'g:availability': 'in_stock',
      // The 'Preço de' is the price, the price is the sale's.
      'g:price': '129.90 BRL',
      'g:sale_price': '89.90 BRL',
      'g:identifier_exists': 'no',
      'g:size': 'G',
      'g:shipping': { 'g:country': 'BR', 'g:price': '15.00 BRL' },
    });

    const mug = items.get('CANECA')!;
    expect(mug).toMatchObject({
      'g:title': 'Caneca',
      // No description: its name.
      'g:description': 'Caneca',
      'g:link': `${ORIGIN}/product/caneca`,
      'g:gtin': '7891000315507',
      'g:condition': 'refurbished',
      // No brand of its own: the store's.
      'g:brand': 'Loja da Ana',
      'g:price': '35.00 BRL',
    });
    // One variant is not a group.
    expect(mug).not.toHaveProperty('g:item_group_id');
    expect(mug).not.toHaveProperty('g:size');
  });

  it('says free shipping as 0.00 BRL', async () => {
    await stock(db());
    const ctx = await context();
    await ctx.settings.save({ shipping_mode: 'free' });
    const items = googleItems(await text(ctx, 'google.xml'));
    expect(items.get('CANECA')?.['g:shipping']).toEqual({
      'g:country': 'BR',
      'g:price': '0.00 BRL',
    });
  });

  it('says nothing of shipping when carriers quote it by address', async () => {
    await stock(db());
    const items = googleItems(await text(await context(true), 'google.xml'));
    expect(items.get('CANECA')).toHaveProperty('g:price', '35.00 BRL');
    expect(items.get('CANECA')).not.toHaveProperty('g:shipping');
  });

  it("lists the same catalogue in Meta's columns", async () => {
    await stock(db());
    const rows = parseCsv(await text(await context(), 'meta.csv'), { columns: true }) as Record<
      string,
      string
    >[];
    expect(Object.keys(rows[0]!)).toEqual([...META_COLUMNS]);
    const bySku = new Map(rows.map((row) => [row.id, row]));
    expect(bySku.get('CAM-G-AZUL')).toMatchObject({
      title: 'Camiseta Básica — G / Azul',
      availability: 'in stock',
      condition: 'new',
      price: '129.90 BRL',
      sale_price: '89.90 BRL',
      link: `${ORIGIN}/product/camiseta-basica?variante=CAM-G-AZUL`,
      image_link: `${ORIGIN}/media/camiseta-g-1000.webp`,
      brand: 'Malharia Sul',
      item_group_id: SHIRT,
      gtin: '',
      size: 'G',
      color: 'Azul',
    });
    expect(bySku.get('CAM-P-AZUL')).toMatchObject({ availability: 'out of stock', sale_price: '' });
    expect(bySku.get('CANECA')).toMatchObject({ gtin: '7891000315507', item_group_id: '' });
  });

  it('is kept until the catalogue changes, on any instance', async () => {
    await stock(db());
    const ctx = await context();
    const first = await productFeed(ctx, 'google.xml');
    expect(await productFeed(ctx, 'google.xml')).toBe(first);
    // A price written by anyone (here plain SQL) is announced by the database.
    await db()
      .update(productVariants)
      .set({ priceCents: 4200 })
      .where(eq(productVariants.sku, 'CANECA'));
    await until(
      async () => ((await productFeed(ctx, 'google.xml')) !== first ? true : undefined),
      'the feed built again',
    );
    const items = googleItems(await text(ctx, 'google.xml'));
    expect(items.get('CANECA')?.['g:price']).toBe('42.00 BRL');
    const again = await productFeed(ctx, 'google.xml');
    expect(new TextDecoder().decode(again.body)).toContain('42.00 BRL');
    expect(again.etag).not.toBe(first.etag);
  });

  it("agrees with each product page's JSON-LD: id, group, price, availability, codes, brand", async () => {
    await stock(db());
    const ctx = await context();
    const items = googleItems(await text(ctx, 'google.xml'));
    const settings = await ctx.settings.get();
    for (const slug of ['camiseta-basica', 'caneca']) {
      const product = (await getProductWithVariants(db(), slug))!;
      const ld = productJsonLd(
        { ...product, path: productPath(product) },
        null,
        settings,
        ORIGIN,
      ) as Record<string, unknown>;
      const offers = (ld.hasVariant as Record<string, unknown>[] | undefined) ?? [ld];
      expect(offers).toHaveLength(product.variants.length);
      for (const offer of offers) {
        const item = items.get(String(offer.sku))!;
        const sold = offer.offers as { price: string; availability: string; url: string };
        // The price a shopper pays is the sale price where the item has one.
        expect(`${sold.price} BRL`).toBe(item['g:sale_price'] ?? item['g:price']);
        expect(sold.availability).toBe(
          item['g:availability'] === 'in_stock'
            ? 'https://schema.org/InStock'
            : 'https://schema.org/OutOfStock',
        );
        expect(sold.url).toBe(item['g:link']);
        expect(offer.gtin).toBe(item['g:gtin']);
        expect(offer.mpn).toBe(item['g:mpn']);
        expect(ld.productGroupID).toBe(item['g:item_group_id']);
        expect((ld.brand as { name: string }).name).toBe(item['g:brand']);
      }
    }
  });

  it('names only its two files', () => {
    expect(isFeedFile('google.xml')).toBe(true);
    expect(isFeedFile('meta.csv')).toBe(true);
    expect(isFeedFile('sitemap.xml')).toBe(false);
    expect(isFeedFile('constructor')).toBe(false);
    expect(isFeedFile(undefined)).toBe(false);
  });
});
