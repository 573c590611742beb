import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { asc, eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';

import type { Db } from '~/db/database.server';
import { categories, outbox, products, restockRequests } from '~/db/schema';
import { deleteOrderByStaff } from '~/flows/admin-order-status.server';
import { importProducts } from '~/flows/import-products.server';
import { expireOrders } from '~/flows/order-payment.server';
import { placeOrder } from '~/flows/place-order.server';
import {
  askForRestockAlert,
  confirmRestockAlert,
  restockHandlers,
} from '~/flows/restock-alerts.server';
import { saveProduct } from '~/flows/save-product.server';
import { parseEnv } from '~/lib/env.server';
import { logger } from '~/lib/logger.server';
import type { ProductValues } from '~/modules/catalog/index.admin.server';
import {
  deleteExpiredRestockRequests,
  findRestockRequestByToken,
  issueRestockConfirmation,
  listRestockRequests,
  alertRestocked,
  RESTOCK_CONFIRM_TOPIC,
  RESTOCK_TOPIC,
} from '~/modules/catalog/index.server';
import { checkoutFormSchema } from '~/modules/checkout';
import { defaultSettings } from '~/modules/settings';
import type { SettingsStore } from '~/modules/settings/index.server';

import { describeDb } from '../support/db';
import { shopperAddress, shopperCpf } from '../support/shoppers';
import { VALID_CHECKOUT } from '../support/visitor';

const SMARTWATCH = '5a3b1e00-0000-4000-8000-00000000e001';
const FONE = '5a3b1e00-0000-4000-8000-00000000e002';
const UNKNOWN = '5a3b1e00-0000-4000-8000-00000000e0ff';

let categoryId = '';

async function seed(db: Db) {
  const [category] = await db.insert(categories).values({ name: 'Acessórios' }).returning();
  categoryId = category!.id;
  await db.insert(products).values([
    {
      id: SMARTWATCH,
      name: 'Smartwatch Fitness',
      priceCents: 59990,
      stockQuantity: 0,
      categoryId,
      imageUrls: ['/sample/smartwatch-1.svg'],
    },
    { id: FONE, name: 'Fone de Ouvido', priceCents: 29990, stockQuantity: 5, categoryId },
  ]);
}

/** 'Avise-me quando chegar', without following the confirmation e-mail. */
const askOnly = (db: Db, email: string, productId = SMARTWATCH) =>
  askForRestockAlert(db, { productId, email });

/** The token the confirmation e-mail of this request would carry (as its outbox job makes it). */
async function tokenFor(db: Db, requestId: string): Promise<string> {
  const confirmation = await issueRestockConfirmation(db, requestId);
  if (!confirmation) throw new Error('Nothing to confirm');
  return confirmation.token;
}

/** 'Avise-me quando chegar', then 'Confirmar' on the page the e-mail's link opens. */
async function ask(db: Db, email: string, productId = SMARTWATCH) {
  const result = await askOnly(db, email, productId);
  if (result.ok && result.confirmationDue) {
    await confirmRestockAlert(db, await tokenFor(db, result.confirmationDue));
  }
  return result;
}

const DAY = 86_400_000;

const requestRows = (db: Db) =>
  db
    .select()
    .from(restockRequests)
    .orderBy(asc(restockRequests.createdAt), asc(restockRequests.email));

const mailRows = (db: Db, topic = RESTOCK_TOPIC) =>
  db
    .select({ topic: outbox.topic, payload: outbox.payload })
    .from(outbox)
    .where(eq(outbox.topic, topic))
    .orderBy(asc(outbox.id));

/** The admin form's save of the smartwatch with this stock. */
function saveStock(db: Db, stockQuantity: number, productId = SMARTWATCH) {
  const values: ProductValues = {
    name: 'Smartwatch Fitness',
    description: '',
    priceCents: 59990,
    stockQuantity,
    categoryId,
    imageUrls: ['/sample/smartwatch-1.svg'],
  };
  return saveProduct(db, { mode: 'update', id: productId, values, uploads: [] });
}

describeDb('restock requests', ({ db }) => {
  beforeEach(async () => {
    await seed(db());
  });

  it('stores a request for a sold-out product once per e-mail, and queues one confirmation e-mail', async () => {
    const first = await askOnly(db(), 'ana@example.com');
    expect(first).toEqual({
      ok: true,
      confirmationDue: expect.any(String),
      product: {
        id: SMARTWATCH,
        name: 'Smartwatch Fitness',
        slug: 'smartwatch-fitness',
        // The product's one variant, the database's default.
        variantId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        sku: 'SMARTWATCH-FITNESS',
        options: [],
      },
    });
    // Asked again at once: no second e-mail.
    expect(await askOnly(db(), 'ana@example.com')).toMatchObject({
      ok: true,
      confirmationDue: null,
    });
    expect(await askOnly(db(), 'bia@example.com')).toMatchObject({
      ok: true,
      confirmationDue: expect.any(String),
    });
    const rows = await requestRows(db());
    expect(rows.map((row) => [row.productId, row.email, row.notifiedAt, row.confirmedAt])).toEqual([
      [SMARTWATCH, 'ana@example.com', null, null],
      [SMARTWATCH, 'bia@example.com', null, null],
    ]);
    expect(await mailRows(db(), RESTOCK_CONFIRM_TOPIC)).toEqual(
      rows.map((row) => ({ topic: RESTOCK_CONFIRM_TOPIC, payload: { requestId: row.id } })),
    );
  });

  it('sends another confirmation e-mail only an hour after the last, and none once confirmed', async () => {
    const first = await askOnly(db(), 'ana@example.com');
    for (let again = 0; again < 5; again += 1) {
      expect(await askOnly(db(), 'ana@example.com')).toMatchObject({ confirmationDue: null });
    }
    expect(await mailRows(db(), RESTOCK_CONFIRM_TOPIC)).toHaveLength(1);
    await db()
      .update(restockRequests)
      .set({ confirmationSentAt: new Date(Date.now() - 61 * 60_000) });
    const later = await askOnly(db(), 'ana@example.com');
    expect(later).toMatchObject({ confirmationDue: first.ok && first.confirmationDue });
    expect(await mailRows(db(), RESTOCK_CONFIRM_TOPIC)).toHaveLength(2);

    // Only the latest e-mail's link works.
    const older = await tokenFor(db(), first.ok ? first.confirmationDue! : '');
    const newer = await tokenFor(db(), first.ok ? first.confirmationDue! : '');
    expect(await confirmRestockAlert(db(), older)).toBeNull();
    expect(await confirmRestockAlert(db(), newer)).toMatchObject({
      email: 'ana@example.com',
      confirmed: true,
    });
    await db()
      .update(restockRequests)
      .set({ confirmationSentAt: new Date(Date.now() - 2 * DAY) });
    expect(await askOnly(db(), 'ana@example.com')).toMatchObject({ confirmationDue: null });
    expect(await mailRows(db(), RESTOCK_CONFIRM_TOPIC)).toHaveLength(2);
  });

  it('keeps only the hash of the token, and confirms by the token alone', async () => {
    const asked = await askOnly(db(), 'ana@example.com');
    const token = await tokenFor(db(), asked.ok ? asked.confirmationDue! : '');
    const [row] = await requestRows(db());
    expect(row!.confirmTokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(await db().select().from(restockRequests))).not.toContain(token);
    // The last character changed to one it is not (a fixed 'A' matched one token in 64).
    const forged = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect(await findRestockRequestByToken(db(), forged)).toBeNull();
    expect(await findRestockRequestByToken(db(), 'curto')).toBeNull();
    expect(await findRestockRequestByToken(db(), token)).toMatchObject({ confirmed: false });
    expect(await confirmRestockAlert(db(), token)).toMatchObject({ confirmed: true });
    // Twice is harmless.
    expect(await confirmRestockAlert(db(), token)).toMatchObject({ confirmed: true });
    expect((await requestRows(db()))[0]!.confirmedAt).toEqual(expect.any(Date));
  });

  it('keeps one open request when the same e-mail arrives twice at once', async () => {
    const results = await Promise.all(
      Array.from({ length: 4 }, () => askOnly(db(), 'ana@example.com')),
    );
    expect(results.every((result) => result.ok)).toBe(true);
    expect(results.filter((result) => result.ok && result.confirmationDue)).toHaveLength(1);
    expect(await requestRows(db())).toHaveLength(1);
    expect(await mailRows(db(), RESTOCK_CONFIRM_TOPIC)).toHaveLength(1);
  });

  it('deletes unconfirmed requests 7 days after their last confirmation e-mail', async () => {
    const old = await askOnly(db(), 'velho@example.com');
    const oldToken = await tokenFor(db(), old.ok ? old.confirmationDue! : '');
    await askOnly(db(), 'recente@example.com');
    await ask(db(), 'confirmado@example.com');
    const eightDaysAgo = new Date(Date.now() - 8 * DAY);
    await db()
      .update(restockRequests)
      .set({ confirmationSentAt: eightDaysAgo })
      .where(sql`${restockRequests.email} in ('velho@example.com', 'confirmado@example.com')`);
    await db()
      .update(restockRequests)
      .set({ confirmationSentAt: new Date(Date.now() - 6 * DAY) })
      .where(eq(restockRequests.email, 'recente@example.com'));
    // Past its 7 days the link no longer works, even before the sweep.
    expect(await findRestockRequestByToken(db(), oldToken)).toBeNull();
    expect(await confirmRestockAlert(db(), oldToken)).toBeNull();
    expect(await deleteExpiredRestockRequests(db())).toBe(1);
    expect((await requestRows(db())).map((row) => row.email).sort()).toEqual([
      'confirmado@example.com',
      'recente@example.com',
    ]);
  });

  it('refuses a product in stock and an unknown one, storing nothing', async () => {
    expect(await ask(db(), 'ana@example.com', FONE)).toEqual({
      ok: false,
      reason: 'in-stock',
      product: {
        id: FONE,
        name: 'Fone de Ouvido',
        slug: 'fone-de-ouvido',
        variantId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        sku: 'FONE-DE-OUVIDO',
        options: [],
      },
    });
    expect(await ask(db(), 'ana@example.com', UNKNOWN)).toEqual({ ok: false, reason: 'missing' });
    expect(await ask(db(), 'ana@example.com', 'smartwatch-fitness')).toEqual({
      ok: false,
      reason: 'missing',
    });
    expect(await requestRows(db())).toEqual([]);
  });

  it('lists the open, confirmed requests for staff, newest first, and counts the others', async () => {
    await askOnly(db(), 'sem-confirmar@example.com');
    for (const [index, email] of ['a@example.com', 'b@example.com', 'c@example.com'].entries()) {
      await ask(db(), email);
      await db()
        .update(restockRequests)
        .set({ createdAt: new Date(Date.UTC(2025, 2, 10 + index)) })
        .where(eq(restockRequests.email, email));
    }
    expect(await listRestockRequests(db(), SMARTWATCH)).toEqual({
      open: 3,
      unconfirmed: 1,
      requests: [
        { email: 'c@example.com', createdAt: new Date('2025-03-12T00:00:00Z') },
        { email: 'b@example.com', createdAt: new Date('2025-03-11T00:00:00Z') },
        { email: 'a@example.com', createdAt: new Date('2025-03-10T00:00:00Z') },
      ],
    });
    expect(await listRestockRequests(db(), FONE)).toEqual({
      open: 0,
      unconfirmed: 0,
      requests: [],
    });
  });
});

describeDb('restock alerts', ({ db }) => {
  beforeEach(async () => {
    await seed(db());
    await ask(db(), 'ana@example.com');
    await ask(db(), 'bia@example.com');
  });

  it('does nothing while the product stays at 0', async () => {
    expect(await saveStock(db(), 0)).toMatchObject({ ok: true });
    expect(await mailRows(db())).toEqual([]);
    expect((await requestRows(db())).every((row) => row.notifiedAt === null)).toBe(true);
  });

  it('queues one e-mail per request when staff save the product back in stock, and only once', async () => {
    const before = Date.now();
    expect(await saveStock(db(), 3)).toMatchObject({ ok: true });
    const rows = await requestRows(db());
    expect(await mailRows(db())).toEqual(
      rows.map((row) => ({ topic: RESTOCK_TOPIC, payload: { requestId: row.id } })),
    );
    for (const row of rows) {
      expect(row.notifiedAt!.getTime()).toBeGreaterThanOrEqual(before - 5_000);
    }
    expect(await listRestockRequests(db(), SMARTWATCH)).toEqual({
      open: 0,
      unconfirmed: 0,
      requests: [],
    });

    // More stock, or the form saved again: nobody is mailed twice.
    await saveStock(db(), 10);
    await saveStock(db(), 10);
    expect(await mailRows(db())).toHaveLength(2);

    // Sold out again, a new request waits for the next restock; the old ones stay closed.
    await saveStock(db(), 0);
    expect(await ask(db(), 'ana@example.com')).toMatchObject({
      ok: true,
      confirmationDue: expect.any(String),
    });
    await saveStock(db(), 1);
    expect(await mailRows(db())).toHaveLength(3);
  });

  it('sends the restock e-mail only to confirmed requests', async () => {
    await askOnly(db(), 'carla@example.com');
    expect(await saveStock(db(), 3)).toMatchObject({ ok: true });
    const rows = await requestRows(db());
    const mailed = rows.filter((row) => row.email !== 'carla@example.com');
    expect(await mailRows(db())).toEqual(
      mailed.map((row) => ({ topic: RESTOCK_TOPIC, payload: { requestId: row.id } })),
    );
    // Carla's request waits, unconfirmed, and is never mailed about this restock.
    expect(rows.find((row) => row.email === 'carla@example.com')).toMatchObject({
      notifiedAt: null,
      confirmedAt: null,
    });
  });

  it('queues the restock e-mail at once when a request is confirmed after the product is back', async () => {
    const asked = await askOnly(db(), 'carla@example.com');
    const token = await tokenFor(db(), asked.ok ? asked.confirmationDue! : '');
    await saveStock(db(), 3);
    expect(await mailRows(db())).toHaveLength(2);
    expect(await confirmRestockAlert(db(), token)).toMatchObject({ email: 'carla@example.com' });
    expect(await mailRows(db())).toHaveLength(3);
  });

  it('sends nothing when the save that restocked is rolled back', async () => {
    await expect(
      db().transaction(async (tx) => {
        await tx.update(products).set({ stockQuantity: 4 }).where(eq(products.id, SMARTWATCH));
        expect(await alertRestocked(tx, [SMARTWATCH])).toBe(2);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await mailRows(db())).toEqual([]);
    expect((await requestRows(db())).every((row) => row.notifiedAt === null)).toBe(true);
  });

  it('queues the e-mails when a CSV import puts stock back', async () => {
    const csv = [
      'id;nome;descricao;preco;estoque;categoria;imagens',
      `${SMARTWATCH};Smartwatch Fitness;Relógio;599,90;6;Acessórios;/sample/smartwatch-1.svg`,
      `${FONE};Fone de Ouvido;Fone;299,90;5;Acessórios;/sample/fone-1.svg`,
    ].join('\n');
    const result = await importProducts(db(), new TextEncoder().encode(csv));
    expect(result).toMatchObject({ ok: true, updated: 2 });
    expect(await mailRows(db())).toHaveLength(2);
    expect((await requestRows(db())).every((row) => row.notifiedAt !== null)).toBe(true);
  });

  it('queues the e-mails when a cancelled order puts the last units back', async () => {
    await db().delete(restockRequests);
    await db().update(products).set({ stockQuantity: 1 }).where(eq(products.id, SMARTWATCH));
    const placed = await placeOrder(
      db(),
      {
        form: checkoutFormSchema.parse({
          ...VALID_CHECKOUT,
          customerCpf: shopperCpf(),
          idempotencyKey: randomUUID(),
        }),
        cart: [
          {
            productId: SMARTWATCH,
            variantId: null,
            quantity: 1,
            seenPriceCents: 59990,
            seenName: '',
          },
        ],
        orderToken: randomUUID(),
        clientAddress: shopperAddress(),
        trackingParameters: {},
        settings: defaultSettings(),
      },
      { tracking: false },
    );
    if (!placed.ok) throw new Error(JSON.stringify(placed));
    // The last unit is in the pending order: the product page offers the form now.
    expect(await ask(db(), 'ana@example.com')).toMatchObject({
      ok: true,
      confirmationDue: expect.any(String),
    });

    // Unpaid past its deadline: cancelled, the unit back, and Ana told.
    const later = new Date(Date.now() + 24 * 60 * 60_000);
    expect(await expireOrders(db(), null, { tracking: false }, { now: later })).toBe(1);
    expect(await mailRows(db())).toHaveLength(1);
    expect(await requestRows(db())).toMatchObject([
      { email: 'ana@example.com', notifiedAt: expect.any(Date) },
    ]);
  });

  it('queues the e-mails when staff delete a pending order holding the last units', async () => {
    await db().delete(restockRequests);
    await db().update(products).set({ stockQuantity: 2 }).where(eq(products.id, SMARTWATCH));
    const placed = await placeOrder(
      db(),
      {
        form: checkoutFormSchema.parse({
          ...VALID_CHECKOUT,
          customerCpf: shopperCpf(),
          idempotencyKey: randomUUID(),
        }),
        cart: [
          {
            productId: SMARTWATCH,
            variantId: null,
            quantity: 2,
            seenPriceCents: 59990,
            seenName: '',
          },
        ],
        orderToken: randomUUID(),
        clientAddress: shopperAddress(),
        trackingParameters: {},
        settings: defaultSettings(),
      },
      { tracking: false },
    );
    if (!placed.ok) throw new Error(JSON.stringify(placed));
    await ask(db(), 'bia@example.com');
    const staff = { id: randomUUID(), fullName: 'Gerente', email: 'gerente@loja.com.br' };
    vi.spyOn(logger, 'info').mockImplementation(() => {});
    const deleted = await deleteOrderByStaff(db(), placed.orderId, staff);
    vi.restoreAllMocks();
    expect(deleted).toMatchObject({ ok: true });
    expect(await mailRows(db())).toHaveLength(1);
  });
});

describeDb('the restock e-mail', ({ db }) => {
  let dataDir = '';

  beforeEach(async () => {
    await seed(db());
    dataDir = await mkdtemp(join(tmpdir(), 'vitrine-restock-'));
    vi.spyOn(logger, 'info').mockImplementation(() => {});
  });

  afterEach(async () => {
    vi.restoreAllMocks();
    await rm(dataDir, { recursive: true, force: true });
  });

  function handler(topic = RESTOCK_TOPIC) {
    const env = parseEnv({ NODE_ENV: 'test', DATA_DIR: dataDir, PUBLIC_URL: 'https://loja.test' });
    const settings = {
      get: async () => ({ ...defaultSettings(), store_name: 'Loja Teste' }),
    } as unknown as SettingsStore;
    return restockHandlers({ env, db: db(), settings, mailSending: async () => ({}) })[topic]!;
  }

  async function mails(): Promise<string[]> {
    const folder = join(dataDir, 'mail');
    const names = await readdir(folder).catch(() => [] as string[]);
    const texts = await Promise.all(names.map((name) => readFile(join(folder, name), 'utf8')));
    // Quoted-printable bodies break long lines with a trailing '='.
    return texts.map((text) => text.replace(/=\r?\n/g, ''));
  }

  it('tells the shopper the product is back, with a link to its page', async () => {
    await ask(db(), 'ana@example.com');
    await saveStock(db(), 2);
    const [row] = await mailRows(db());
    await handler()(row!.payload, new AbortController().signal);
    const [mail] = await mails();
    expect(mail).toContain('To: ana@example.com');
    expect(mail).toContain('Subject: Chegou: Smartwatch Fitness');
    expect(mail).toContain('href=3D"https://loja.test/product/smartwatch-fitness"');
    expect(mail).toContain('Ver o produto: https://loja.test/product/smartwatch-fitness');
  });

  it('asks the address to confirm, with a link whose token confirms the request', async () => {
    await askOnly(db(), 'ana@example.com');
    const [row] = await mailRows(db(), RESTOCK_CONFIRM_TOPIC);
    await handler(RESTOCK_CONFIRM_TOPIC)(row!.payload, new AbortController().signal);
    const [mail] = await mails();
    expect(mail).toContain('To: ana@example.com');
    expect(mail).toContain('Subject: Confirme o aviso: Smartwatch Fitness');
    const link = /Confirmar o aviso: (https:\/\/loja\.test\/avise-me\/confirmar\?chave=\S+)/.exec(
      mail!,
    );
    expect(link).not.toBeNull();
    // Quoted-printable writes the link's '=' as '=3D'.
    const token = new URL(link![1]!.replaceAll('=3D', '=')).searchParams.get('chave')!;
    expect(await confirmRestockAlert(db(), token)).toMatchObject({
      email: 'ana@example.com',
      confirmed: true,
    });
    // Confirmed since: a retried job sends nothing.
    await handler(RESTOCK_CONFIRM_TOPIC)(row!.payload, new AbortController().signal);
    expect(await mails()).toHaveLength(1);
  });

  it('skips the e-mail of a product deleted meanwhile', async () => {
    await ask(db(), 'ana@example.com');
    await saveStock(db(), 2);
    const [row] = await mailRows(db());
    await db().execute(sql`delete from products where id = ${SMARTWATCH}`);
    await handler()(row!.payload, new AbortController().signal);
    expect(await mails()).toEqual([]);
  });
});
