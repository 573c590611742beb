import { randomUUID } from 'node:crypto';

import { eq, sql } from 'drizzle-orm';
import { expect, it, vi } from 'vitest';

import type { Db } from '~/db/database.server';
import { categories, coupons, media, mediaVariants, products, storeSettings } from '~/db/schema';
import { goLive } from '~/flows/go-live.server';
import { payOrder } from '~/flows/order-payment.server';
import { placeOrder } from '~/flows/place-order.server';
import { SAMPLE_CATEGORIES, SAMPLE_PRODUCTS, SAMPLE_SETTINGS } from '~/flows/sample-store';
import { initializeStore } from '~/flows/seed-sample-store.server';
import { listCategories } from '~/modules/catalog/index.server';
import { checkoutFormSchema } from '~/modules/checkout';
import { enqueue } from '~/modules/jobs/index.server';
import { createSandboxProvider } from '~/modules/payments/index.server';
import { defaultSettings } from '~/modules/settings';
import { readSettings, readStoreMode, saveSettings } from '~/modules/settings/index.server';

import { describeDb, openSettingsStore, queryRows } from '../support/db';
import { VALID_CHECKOUT } from '../support/visitor';

const FONE = SAMPLE_PRODUCTS[0]!;

async function counts(db: Db) {
  const [row] = await queryRows<Record<string, number>>(
    db,
    sql`select (select count(*)::int from categories) as categories,
               (select count(*)::int from products) as products,
               (select count(*)::int from reviews) as reviews,
               (select count(*)::int from orders) as orders,
               (select count(*)::int from order_items) as order_items,
               (select count(*)::int from order_events) as order_events,
               (select count(*)::int from sandbox_payments) as sandbox_payments,
               (select count(*)::int from restock_requests) as restock_requests,
               (select count(*)::int from abandoned_checkouts) as abandoned_checkouts,
               (select count(*)::int from outbox where payload ? 'orderId') as order_jobs,
               (select count(*)::int from outbox) as outbox,
               (select count(*)::int from media) as media,
               (select count(*)::int from coupons) as coupons`,
  );
  return row!;
}

/** An upload as the admin stores it: one row and its one file. */
async function upload(db: Db): Promise<string> {
  const id = randomUUID();
  await db.insert(media).values({ id, width: 320, height: 320 });
  await db.insert(mediaVariants).values({ mediaId: id, width: 320, bytes: new Uint8Array([1]) });
  return `/media/${id}-320.webp`;
}

/** A shopper's order for the sample headphones, paid with the sandbox: order, outbox, payment. */
async function testOrder(db: Db): Promise<string> {
  const placed = await placeOrder(
    db,
    {
      form: checkoutFormSchema.parse({ ...VALID_CHECKOUT, idempotencyKey: randomUUID() }),
      cart: [
        {
          productId: FONE.id,
          variantId: null,
          quantity: 1,
          seenPriceCents: FONE.priceCents,
          seenName: FONE.name,
        },
      ],
      orderToken: randomUUID(),
      clientAddress: '198.51.100.7',
      trackingParameters: {},
      settings: await readSettings(db),
    },
    { tracking: true },
  );
  if (!placed.ok) throw new Error(`Order refused: ${JSON.stringify(placed)}`);
  const paid = await payOrder(
    db,
    createSandboxProvider({ db, settings: async () => defaultSettings() }),
    placed.orderId,
  );
  expect(paid.ok).toBe(true);
  return placed.orderId;
}

describeDb('going live', ({ db, database }) => {
  it('makes a store created with the sample data a demo, and one created without it live', async () => {
    expect(await readStoreMode(db())).toBe('live');
    await initializeStore(db(), { seed: true });
    expect(await readStoreMode(db())).toBe('demo');
  });

  it('starts a store created without the sample data live', async () => {
    await initializeStore(db(), { seed: false });
    expect(await readStoreMode(db())).toBe('live');
    expect(await goLive(db())).toEqual({ ok: false, reason: 'already-live' });
  });

  it('deletes every sample record and test order, keeps the store’s own, and is for good', async () => {
    await initializeStore(db(), { seed: true });
    // The merchant tried the demo: their own product, an upload on a sample product and one
    // shared with their product, their own e-mail address, a test order and an 'Avise-me'.
    const sampleOnly = await upload(db());
    const shared = await upload(db());
    await db()
      .update(products)
      .set({ imageUrls: [sampleOnly, shared] })
      .where(eq(products.id, FONE.id));
    await db()
      .insert(products)
      .values({ name: 'Produto da loja', priceCents: 5000, imageUrls: [shared] });
    await saveSettings(db(), { contact_email: 'contato@minhaloja.com.br', logo_url: '' });
    await testOrder(db());
    await db().insert(coupons).values({ code: 'MINHALOJA', kind: 'percent', value: 5 });
    await queryRows(
      db(),
      sql`insert into restock_requests (product_id, variant_id, email)
        select product_id, id, 'ana@example.com' from product_variants where product_id = ${FONE.id}`,
    );
    await enqueue(db(), 'email.restock', { requestId: randomUUID() });
    await queryRows(
      db(),
      sql`insert into abandoned_checkouts (email, lines, value_cents, typed_at, expires_at)
        values ('bia@example.com', '[]', 0, now(), now() + interval '30 days')`,
    );
    const before = await counts(db());
    expect(before).toMatchObject({
      products: 11,
      orders: 1,
      sandbox_payments: 1,
      media: 2,
      coupons: 3,
      abandoned_checkouts: 1,
    });
    expect(before.order_jobs).toBeGreaterThan(0);

    expect(await goLive(db())).toEqual({
      ok: true,
      deleted: { orders: 1, products: 10, images: 1 },
    });

    expect(await readStoreMode(db())).toBe('live');
    expect(await counts(db())).toEqual({
      categories: 0,
      products: 1,
      reviews: 0,
      orders: 0,
      order_items: 0,
      order_events: 0,
      sandbox_payments: 0,
      restock_requests: 0,
      abandoned_checkouts: 0,
      order_jobs: 0,
      // Work about anything else is left to the outbox's own handling.
      outbox: 1,
      media: 1,
      // The store's own coupon stays; the sample ones go.
      coupons: 1,
    });
    const [kept] = await db().select({ id: media.id }).from(media);
    expect(shared).toContain(kept!.id);
    const settings = await readSettings(db());
    expect(settings.contact_email).toBe('contato@minhaloja.com.br');
    expect(settings.legal_name).toBe('');
    expect(settings.cnpj).toBe('');
    expect(settings.contact_whatsapp).toBe('');
    expect(settings.instagram_url).toBe('');
    expect(SAMPLE_SETTINGS.legal_name).not.toBe('');

    // No way back: a second confirmation does nothing, and a restart seeds nothing.
    expect(await goLive(db())).toEqual({ ok: false, reason: 'already-live' });
    expect(await initializeStore(db(), { seed: true })).toBe('existing');
    expect(await readStoreMode(db())).toBe('live');
    expect((await counts(db())).products).toBe(1);
  });

  it('keeps a sample category holding the merchant’s own product, and drops the sample slogan', async () => {
    await initializeStore(db(), { seed: true });
    const audio = SAMPLE_CATEGORIES.find((category) => category.name === 'Áudio')!;
    const [own] = await db()
      .insert(products)
      .values({ name: 'Fone da loja', priceCents: 9900, categoryId: audio.id })
      .returning({ id: products.id });
    await db()
      .insert(coupons)
      .values({
        code: 'AUDIO5',
        kind: 'percent',
        value: 5,
        categoryIds: [audio.id, SAMPLE_CATEGORIES.find((c) => c.name === 'Casa')!.id],
      });
    expect((await readSettings(db())).store_description).toBe(SAMPLE_SETTINGS.store_description);

    await goLive(db());

    const [kept] = await db()
      .select({ categoryId: products.categoryId })
      .from(products)
      .where(eq(products.id, own!.id));
    expect(kept!.categoryId).toBe(audio.id);
    expect((await db().select({ id: categories.id }).from(categories)).map((c) => c.id)).toEqual([
      audio.id,
    ]);
    // The coupon still names the kept category, and only that one.
    const [coupon] = await db()
      .select({ categoryIds: coupons.categoryIds, active: coupons.active })
      .from(coupons)
      .where(eq(coupons.code, 'AUDIO5'));
    expect(coupon).toEqual({ categoryIds: [audio.id], active: true });
    expect(
      (await listCategories(db(), { featuredOnly: true, withProducts: true })).map((c) => c.name),
    ).toEqual(['Áudio']);
    expect((await readSettings(db())).store_description).toBe('');
  });

  it('keeps a slogan the merchant wrote', async () => {
    await initializeStore(db(), { seed: true });
    await saveSettings(db(), { store_description: 'Fones feitos à mão em Minas.' });
    await goLive(db());
    expect((await readSettings(db())).store_description).toBe('Fones feitos à mão em Minas.');
  });

  it('reaches every instance through the settings’ notifications', async () => {
    await initializeStore(db(), { seed: true });
    const other = await openSettingsStore(database());
    try {
      expect(await other.mode()).toBe('demo');
      // Read once more: now from that instance's cache.
      expect(await other.mode()).toBe('demo');
      await goLive(db());
      await vi.waitFor(async () => expect(await other.mode()).toBe('live'), { timeout: 5_000 });
    } finally {
      await other.close();
    }
  });

  it('keeps the mode out of reach of the settings form', async () => {
    await initializeStore(db(), { seed: true });
    const saved = await saveSettings(db(), { mode: 'live' });
    expect(saved.success).toBe(false);
    const [row] = await db().select({ mode: storeSettings.mode }).from(storeSettings);
    expect(row!.mode).toBe('demo');
  });
});
