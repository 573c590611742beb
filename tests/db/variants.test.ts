import { asc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { createChangeFeed } from '~/db/changes.server';
import type { Db } from '~/db/database.server';
import { products, productVariants } from '~/db/schema';

import { describeDb } from '../support/db';
import { acrossMigration } from '../support/migrations';
import { until } from '../support/until';

async function variantsOf(db: Db, productId: string) {
  return db
    .select()
    .from(productVariants)
    .where(eq(productVariants.productId, productId))
    .orderBy(asc(productVariants.position), asc(productVariants.sku));
}

async function stockOf(db: Db, productId: string): Promise<number> {
  const [row] = await db
    .select({ stock: products.stockQuantity })
    .from(products)
    .where(eq(products.id, productId));
  return row!.stock;
}

const TSHIRT_OPTIONS = [
  { name: 'Tamanho', values: [{ name: 'P' }, { name: 'G' }] },
  { name: 'Cor', values: [{ name: 'Azul', color: '#1d4ed8' }] },
];

/** A T-shirt written as the admin writes it: the product and its variants in one transaction. */
async function tshirt(db: Db, stocks: [number, number] = [3, 5]) {
  return db.transaction(async (tx) => {
    const [product] = await tx
      .insert(products)
      .values({ name: 'Camiseta Básica', priceCents: 4990, options: TSHIRT_OPTIONS })
      .returning();
    await tx.insert(productVariants).values([
      {
        productId: product!.id,
        position: 1,
        option1: 'P',
        option2: 'Azul',
        stockQuantity: stocks[0],
      },
      {
        productId: product!.id,
        position: 2,
        option1: 'G',
        option2: 'Azul',
        stockQuantity: stocks[1],
        priceCents: 5490,
      },
    ]);
    return product!;
  });
}

describeDb('product variants', ({ db, database }) => {
  it('gives a product inserted without variants its default one, with its stock and a SKU from its slug', async () => {
    const [product] = await db()
      .insert(products)
      .values({ name: 'Fone de Ouvido', priceCents: 29990, stockQuantity: 7 })
      .returning();
    const variants = await variantsOf(db(), product!.id);
    expect(variants).toMatchObject([
      {
        position: 1,
        sku: 'FONE-DE-OUVIDO',
        option1: null,
        priceCents: null,
        compareAtPriceCents: null,
        stockQuantity: 7,
      },
    ]);
    expect(await stockOf(db(), product!.id)).toBe(7);
    // A SKU taken (typed by staff for another product) gets the next free one.
    await db()
      .update(productVariants)
      .set({ sku: 'MOUSE' })
      .where(eq(productVariants.productId, product!.id));
    const [mouse] = await db()
      .insert(products)
      .values({ name: 'Mouse', priceCents: 100, stockQuantity: 0 })
      .returning();
    expect((await variantsOf(db(), mouse!.id)).map((variant) => variant.sku)).toEqual(['MOUSE-2']);
  });

  it("makes no default variant for a product written with its own, and keeps the product's stock their sum", async () => {
    const product = await tshirt(db());
    const variants = await variantsOf(db(), product.id);
    expect(variants.map((variant) => [variant.sku, variant.stockQuantity])).toEqual([
      ['CAMISETA-BASICA-P-AZUL', 3],
      ['CAMISETA-BASICA-G-AZUL', 5],
    ]);
    expect(await stockOf(db(), product.id)).toBe(8);

    // A sale, a restock, a deletion: whoever writes a variant, the sum follows.
    await db()
      .update(productVariants)
      .set({ stockQuantity: sql`${productVariants.stockQuantity} - 2` })
      .where(eq(productVariants.id, variants[1]!.id));
    expect(await stockOf(db(), product.id)).toBe(6);
    await db().execute(
      sql`update product_variants set stock_quantity = 10 where sku = 'CAMISETA-BASICA-P-AZUL'`,
    );
    expect(await stockOf(db(), product.id)).toBe(13);
    await db().delete(productVariants).where(eq(productVariants.id, variants[0]!.id));
    expect(await stockOf(db(), product.id)).toBe(3);
  });

  it("refuses to leave a product without variants, and one combination's second variant", async () => {
    const [product] = await db()
      .insert(products)
      .values({ name: 'Cabo', priceCents: 3990, stockQuantity: 2 })
      .returning();
    await expect(
      db().delete(productVariants).where(eq(productVariants.productId, product!.id)),
    ).rejects.toThrow();
    expect(await variantsOf(db(), product!.id)).toHaveLength(1);
    // Deleting the product takes its variants with it.
    await db().delete(products).where(eq(products.id, product!.id));
    expect(await variantsOf(db(), product!.id)).toEqual([]);

    const tee = await tshirt(db());
    await expect(
      db()
        .insert(productVariants)
        .values({ productId: tee.id, option1: 'P', option2: 'Azul', stockQuantity: 1 }),
    ).rejects.toThrow();
    await expect(
      db().insert(productVariants).values({ productId: tee.id, sku: 'CAMISETA-BASICA-P-AZUL' }),
    ).rejects.toThrow();
  });

  it("sends a write of a product's stock to its only variant, and refuses it for a product with several", async () => {
    const [product] = await db()
      .insert(products)
      .values({ name: 'Mouse', priceCents: 9990, stockQuantity: 4 })
      .returning();
    await db().update(products).set({ stockQuantity: 9 }).where(eq(products.id, product!.id));
    expect((await variantsOf(db(), product!.id))[0]!.stockQuantity).toBe(9);
    expect(await stockOf(db(), product!.id)).toBe(9);

    const tee = await tshirt(db());
    await expect(
      db().update(products).set({ stockQuantity: 1 }).where(eq(products.id, tee.id)),
    ).rejects.toThrow();
    expect(await stockOf(db(), tee.id)).toBe(8);
  });

  it('announces a change to a variant alone, so cached pages that show it are dropped', async () => {
    const product = await tshirt(db());
    const feed = await createChangeFeed(database());
    try {
      await until(async () => feed.live() || undefined, 'the feed to listen');
      const heard: (string | null)[] = [];
      feed.subscribe((table) => heard.push(table));
      await db()
        .update(productVariants)
        .set({ priceCents: 5990 })
        .where(eq(productVariants.productId, product.id));
      await until(
        async () => (heard.includes('product_variants') ? true : undefined),
        'the announcement',
      );
    } finally {
      await feed.close();
    }
  });

  it('leaves a product’s updated_at where it was when a sale or a restock moves its stock, and announces a change of its own', async () => {
    const product = await tshirt(db(), [200, 80]);
    const small = (await variantsOf(db(), product.id))[0]!;
    const changedAt = async () =>
      (
        await db()
          .select({ at: products.updatedAt })
          .from(products)
          .where(eq(products.id, product.id))
      )[0]!.at;
    const placed = await changedAt();
    // Its sum moves; its time (the sitemap's lastmod, and an indexed column: moving it wrote a
    // new entry into every index of products on each sale) does not.
    for (const units of [-5, 12]) {
      await db()
        .update(productVariants)
        .set({
          stockQuantity: sql`${productVariants.stockQuantity} + ${units}`,
          updatedAt: sql`now()`,
        })
        .where(eq(productVariants.id, small.id));
    }
    expect(await stockOf(db(), product.id)).toBe(287);
    expect(await changedAt()).toEqual(placed);
    const feed = await createChangeFeed(database());
    try {
      await until(async () => feed.live() || undefined, 'the feed to listen');
      const heard: (string | null)[] = [];
      feed.subscribe((table) => heard.push(table));
      await db().update(products).set({ name: 'Camiseta Lisa' }).where(eq(products.id, product.id));
      await until(async () => (heard.includes('products') ? true : undefined), 'the announcement');
    } finally {
      await feed.close();
    }
  });

  it('has no BEFORE UPDATE row trigger on products, so a sale does not work out its search columns again', async () => {
    // PostgreSQL recomputes every stored generated column of an UPDATE when the table has one.
    const before = await db().execute(
      sql`select tgname from pg_trigger where tgrelid = 'products'::regclass and not tgisinternal
          and tgtype & 1 = 1 and tgtype & 2 = 2 and tgtype & 16 = 16`,
    );
    expect((before as unknown as { rows: unknown[] }).rows).toEqual([]);
    // What those triggers did still happens, after the row is written.
    const product = await tshirt(db(), [3, 5]);
    await db()
      .update(products)
      .set({ slug: 'Camiseta Nova!', priceCents: 3990 })
      .where(eq(products.id, product.id));
    const [row] = await db()
      .select({ slug: products.slug, fromPrice: products.fromPriceCents })
      .from(products)
      .where(eq(products.id, product.id));
    expect(row).toEqual({ slug: 'camiseta-nova', fromPrice: 3990 });
    // An emptied slug is made again from the name once, as when inserted: a long name whose
    // slug (cut at 80) is taken gets '-2' after it, which is not cut again.
    const name = 'Camiseta de algodão penteado com gola careca e costura reforçada, tamanho grande';
    const [first] = await db()
      .insert(products)
      .values({ name, priceCents: 4990 })
      .returning({ slug: products.slug });
    await db().update(products).set({ name, slug: '' }).where(eq(products.id, product.id));
    const [second] = await db()
      .select({ slug: products.slug })
      .from(products)
      .where(eq(products.id, product.id));
    expect(second!.slug).toBe(`${first!.slug}-2`);
    expect(second!.slug.length).toBeGreaterThan(80);
  });

  it('keeps quiet about a sale that leaves the stock where the storefront shows it the same', async () => {
    const product = await tshirt(db(), [200, 80]);
    const small = (await variantsOf(db(), product.id))[0]!;
    const feed = await createChangeFeed(database());
    try {
      await until(async () => feed.live() || undefined, 'the feed to listen');
      const heard: (string | null)[] = [];
      feed.subscribe((table) => heard.push(table));
      // Announcements arrive in commit order: once a new category's is heard, any that the
      // writes before it made have been heard too.
      let markers = 0;
      const settle = async () => {
        markers += 1;
        await db().execute(sql`insert into categories (name) values (${`Marca ${markers}`})`);
        await until(
          async () =>
            heard.filter((table) => table === 'categories').length >= markers || undefined,
          'the marker',
        );
      };
      const sell = async (units: number) => {
        await settle();
        const from = heard.length;
        await db()
          .update(productVariants)
          .set({ stockQuantity: sql`${productVariants.stockQuantity} - ${units}` })
          .where(eq(productVariants.id, small.id));
        await settle();
        return heard.slice(from).filter((table) => table !== 'categories');
      };
      expect(await sell(100)).toEqual([]);
      expect(await stockOf(db(), product.id)).toBe(180);
      // 100 → 51 is still above every band; 51 → 50 takes the card's 'Novo' off.
      expect(await sell(49)).toEqual([]);
      expect(await sell(1)).toEqual(['product_variants']);
      // A limit per item above the bands widens them: the quantity picker shows the stock.
      await db().execute(
        sql`insert into store_settings (id, values) values (1, '{"max_quantity_per_item": 999}')
            on conflict (id) do update set values = store_settings.values || excluded.values`,
      );
      await db()
        .update(productVariants)
        .set({ stockQuantity: 600 })
        .where(eq(productVariants.id, small.id));
      expect((await sell(1)).sort()).toEqual(['product_variants', 'products']);
    } finally {
      await feed.close();
    }
  });
});

describe('migration 0022 (product variants)', () => {
  it('gives every product, order line and restock request a default variant, with stock unchanged', async () => {
    await acrossMigration(
      '_product_variants',
      async (client) => {
        await client.query(
          `insert into products (id, name, price_cents, stock_quantity) values
            ('5a3b1e00-0000-4000-8000-000000000001', 'Fone', 29990, 5),
            ('5a3b1e00-0000-4000-8000-000000000002', 'Cabo', 3990, 0)`,
        );
        await client.query(
          `insert into orders (id, customer_name, customer_email, customer_phone, customer_cpf,
            shipping_zip, shipping_street, shipping_number, shipping_neighborhood, shipping_city,
            shipping_state, subtotal_cents, total_amount_cents, order_token)
           values ('5a3b1e00-0000-4000-8000-0000000000a1', 'Ana', 'ana@example.com',
            '11987654321', '52998224725', '01310100', 'Rua', '1', 'Centro', 'São Paulo', 'SP',
            29990, 29990, 'token')`,
        );
        await client.query(
          `insert into order_items (order_id, product_id, product_name, product_price_cents,
            quantity, total_price_cents)
           values ('5a3b1e00-0000-4000-8000-0000000000a1', '5a3b1e00-0000-4000-8000-000000000001',
            'Fone', 29990, 1, 29990)`,
        );
        await client.query(
          `insert into restock_requests (product_id, email)
           values ('5a3b1e00-0000-4000-8000-000000000002', 'ana@example.com')`,
        );
      },
      async (client) => {
        const variants = await client.query<{ name: string; sku: string; stock: number }>(
          `select p.name, v.sku, v.stock_quantity as stock from product_variants v
             join products p on p.id = v.product_id order by p.name`,
        );
        expect(variants.rows).toEqual([
          { name: 'Cabo', sku: 'CABO', stock: 0 },
          { name: 'Fone', sku: 'FONE', stock: 5 },
        ]);
        const stock = await client.query<{ stock: number }>(
          `select stock_quantity as stock from products order by name`,
        );
        expect(stock.rows).toEqual([{ stock: 0 }, { stock: 5 }]);
        const lines = await client.query<{ sku: string; same: boolean }>(
          `select oi.sku, oi.variant_id = v.id as same from order_items oi
             join product_variants v on v.product_id = oi.product_id`,
        );
        expect(lines.rows).toEqual([{ sku: 'FONE', same: true }]);
        const requests = await client.query<{ sku: string }>(
          `select v.sku from restock_requests r join product_variants v on v.id = r.variant_id`,
        );
        expect(requests.rows).toEqual([{ sku: 'CABO' }]);
      },
    );
  });
});
