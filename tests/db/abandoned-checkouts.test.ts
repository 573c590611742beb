import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { Db } from '~/db/database.server';
import { abandonedCheckouts, outbox, products } from '~/db/schema';
import {
  abandonedCheckoutHandlers,
  restoreAbandonedCart,
  saveCheckoutContact,
  sweepAbandonedCheckouts,
} from '~/flows/abandoned-checkouts.server';
import { expireOrders } from '~/flows/order-payment.server';
import { placeOrder } from '~/flows/place-order.server';
import { parseEnv } from '~/lib/env.server';
import { logger } from '~/lib/logger.server';
import type { CartLine } from '~/modules/cart';
import { cartCookieHeader, readCart } from '~/modules/cart/index.server';
import {
  ABANDONED_RECOVERY_TOPIC,
  checkoutRecoveryCookieHeader,
  deleteRecoveryData,
  isRecoveryOptedOut,
  issueRecoveryMail,
  readCheckoutRecoveryCookie,
  recoveryDataOf,
  setRecoveryOptOut,
  unsubscribeByKey,
  unsubscribeKeyEmail,
} from '~/modules/recovery/index.server';
import { recoveredSales } from '~/modules/recovery/index.admin.server';
import { defaultSettings, type StoreSettings } from '~/modules/settings';
import type { SettingsStore } from '~/modules/settings/index.server';

import { loader as recoverLoader } from '~/routes/store/cart-recover';
import { action as contactAction, loader as contactLoader } from '~/routes/store/checkout-contact';
import {
  action as unsubscribeAction,
  loader as unsubscribeLoader,
} from '~/routes/store/unsubscribe';

import { describeDb } from '../support/db';
import { shopperAddress } from '../support/shoppers';
import { shopperCheckout } from '../support/visitor';

const FONE = '5a3b1e00-0000-4000-8000-00000000f001';
const CART: CartLine[] = [
  { productId: FONE, variantId: null, quantity: 2, seenPriceCents: 29990, seenName: 'Fone' },
];
const T0 = new Date('2031-03-10T12:00:00Z');
const minutes = (count: number) => new Date(T0.getTime() + count * 60_000);

function settingsWith(patch: Partial<StoreSettings> = {}): SettingsStore {
  const settings = { ...defaultSettings(), store_name: 'Loja Teste', ...patch };
  return { get: async () => settings } as unknown as SettingsStore;
}

const cookiePart = (header: string) => header.slice(0, header.indexOf(';'));

/** The checkout's small request with what the shopper typed, from a browser holding `cookies`. */
async function contactRequest(fields: Record<string, string>, cookies: string[] = []) {
  return new Request('http://loja.test/checkout/contato', {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Cookie: [cookiePart(await cartCookieHeader(CART)), ...cookies].join('; '),
    },
    body: new URLSearchParams(fields),
  });
}

/** Saves a checkout typed at `now`; answers the browser's recovery cookie. */
async function typeAtCheckout(
  db: Db,
  email: string,
  now = T0,
  extra: Record<string, string> = {},
): Promise<string> {
  const saved = await saveCheckoutContact(
    { db, settings: settingsWith() },
    await contactRequest({ customerEmail: email, customerName: 'Ana Souza', ...extra }),
    now,
  );
  if (!saved.ok) throw new Error(saved.error);
  return cookiePart(saved.headers.get('Set-Cookie') ?? '');
}

async function queuedMails(db: Db) {
  return db.select().from(outbox).where(eq(outbox.topic, ABANDONED_RECOVERY_TOPIC));
}

async function order(db: Db, email: string, recoveryCookie: string | null, cart = CART) {
  const checkoutId = recoveryCookie
    ? await readCheckoutRecoveryCookie(
        new Request('http://x', { headers: { Cookie: recoveryCookie } }),
      )
    : null;
  const placed = await placeOrder(
    db,
    {
      form: shopperCheckout({ customerEmail: email }),
      cart,
      orderToken: randomUUID(),
      clientAddress: shopperAddress(),
      trackingParameters: {},
      settings: defaultSettings(),
      recoveryCheckoutId: checkoutId,
    },
    { tracking: false },
  );
  if (!placed.ok) throw new Error(JSON.stringify(placed));
  return placed;
}

describeDb('abandoned checkouts', ({ db, database }) => {
  beforeEach(async () => {
    await db()
      .insert(products)
      .values({ id: FONE, name: 'Fone de Ouvido', priceCents: 29990, stockQuantity: 50 });
    vi.spyOn(logger, 'info').mockImplementation(() => {});
  });
  afterEach(() => vi.restoreAllMocks());

  it('keeps a valid e-mail as typed with the cart, and nothing for an invalid one', async () => {
    const refused = await saveCheckoutContact(
      { db: db(), settings: settingsWith() },
      await contactRequest({ customerEmail: 'ana@' }),
      T0,
    );
    expect(refused).toMatchObject({
      ok: false,
      fieldErrors: { customerEmail: 'E-mail inválido.' },
    });
    expect(await db().select().from(abandonedCheckouts)).toHaveLength(0);

    const cookie = await typeAtCheckout(db(), ' Ana@Example.com ', T0, {
      customerPhone: '(11) 98765-4321',
    });
    expect(cookie).toMatch(/^vitrine_checkout=/);
    const [row] = await db().select().from(abandonedCheckouts);
    expect(row).toMatchObject({
      email: 'ana@example.com',
      name: 'Ana Souza',
      phone: '11987654321',
      valueCents: 59980,
      status: 'open',
      lines: [{ productId: FONE, quantity: 2, name: 'Fone de Ouvido' }],
    });
  });

  it('keeps one open checkout per address, however its requests race', async () => {
    const context = { db: db(), settings: settingsWith() };
    const answers = await Promise.all(
      ['Ana', 'Ana Souza', 'Ana S.'].map(async (name) =>
        saveCheckoutContact(
          context,
          await contactRequest({ customerEmail: 'ana@example.com', customerName: name }),
          T0,
        ),
      ),
    );
    expect(answers.every((answer) => answer.ok)).toBe(true);
    expect(await db().select().from(abandonedCheckouts)).toHaveLength(1);
    // The same browser changing the address to one another browser left: one checkout each.
    const cookie = await typeAtCheckout(db(), 'bia@example.com');
    await saveCheckoutContact(
      context,
      await contactRequest({ customerEmail: 'ana@example.com' }, [cookie]),
      minutes(1),
    );
    const rows = await db().select().from(abandonedCheckouts);
    expect(rows.map((row) => row.email)).toEqual(['ana@example.com']);
  });

  it('sends one e-mail once the delay has passed, never a second one', async () => {
    await typeAtCheckout(db(), 'ana@example.com');
    const settings = settingsWith({ abandoned_checkout_delay_minutes: 1 });
    expect(await sweepAbandonedCheckouts(db(), settings, minutes(0.5))).toBe(0);
    expect(await sweepAbandonedCheckouts(db(), settings, minutes(1))).toBe(1);
    expect(await sweepAbandonedCheckouts(db(), settings, minutes(2))).toBe(0);
    expect(await queuedMails(db())).toHaveLength(1);
    // Typing again at the same checkout does not open it for a second e-mail.
    const [row] = await db().select().from(abandonedCheckouts);
    const again = await saveCheckoutContact(
      { db: db(), settings: settingsWith() },
      await contactRequest({ customerEmail: 'ana@example.com' }, [
        cookiePart(await checkoutRecoveryCookieHeader(row!.id)),
      ]),
      minutes(3),
    );
    expect(again.ok).toBe(true);
    expect(await sweepAbandonedCheckouts(db(), settings, minutes(10))).toBe(0);
    expect(await queuedMails(db())).toHaveLength(1);
  });

  it('sends nothing with the delay at 0 (recovery off)', async () => {
    await typeAtCheckout(db(), 'ana@example.com');
    const off = settingsWith({ abandoned_checkout_delay_minutes: 0 });
    expect(await sweepAbandonedCheckouts(db(), off, minutes(60 * 24))).toBe(0);
    expect(await queuedMails(db())).toHaveLength(0);
  });

  it('sends nothing to a shopper who opted out, at checkout or later', async () => {
    await typeAtCheckout(db(), 'ana@example.com', T0, { recoveryOptOut: 'on' });
    expect(await isRecoveryOptedOut(db(), 'ANA@example.com')).toBe(true);
    await typeAtCheckout(db(), 'bia@example.com');
    await setRecoveryOptOut(db(), 'bia@example.com', true, T0);
    const settings = settingsWith({ abandoned_checkout_delay_minutes: 1 });
    expect(await sweepAbandonedCheckouts(db(), settings, minutes(5))).toBe(0);
    await setRecoveryOptOut(db(), 'bia@example.com', false, T0);
    expect(await isRecoveryOptedOut(db(), 'bia@example.com')).toBe(false);
  });

  it('sends nothing for a checkout that became an order, even once the order is cancelled', async () => {
    await typeAtCheckout(db(), 'ana@example.com');
    // Placed from another browser (no saved checkout there), with the same address.
    const placed = await order(db(), 'ana@example.com', null);
    // Left unpaid, it is cancelled past its PIX deadline.
    const cancelled = await expireOrders(
      db(),
      null,
      { tracking: false },
      {
        now: new Date(Date.now() + 8 * 24 * 60 * 60_000),
      },
    );
    expect(cancelled).toBe(1);
    const settings = settingsWith({ abandoned_checkout_delay_minutes: 1 });
    expect(await sweepAbandonedCheckouts(db(), settings, minutes(60))).toBe(0);
    const rows = await db().select().from(abandonedCheckouts);
    expect(rows.map((row) => row.status)).toEqual(['converted']);
    expect(rows.every((row) => row.orderId === placed.orderId && !row.recovered)).toBe(true);
  });

  it('stops an e-mail claimed before the order came in', async () => {
    const cookie = await typeAtCheckout(db(), 'ana@example.com');
    await sweepAbandonedCheckouts(
      db(),
      settingsWith({ abandoned_checkout_delay_minutes: 1 }),
      minutes(1),
    );
    await order(db(), 'ana@example.com', cookie);
    const [row] = await db().select().from(abandonedCheckouts);
    expect(await issueRecoveryMail(db(), row!.id, minutes(2))).toBeNull();
  });

  it('gives each due checkout to one of two sweeps running at once', async () => {
    for (let index = 0; index < 12; index++) await typeAtCheckout(db(), `c${index}@example.com`);
    const settings = settingsWith({ abandoned_checkout_delay_minutes: 1 });
    // On PostgreSQL the two run on two connections of the pool, truly at once.
    const counts = await Promise.all([
      sweepAbandonedCheckouts(database().db, settings, minutes(2)),
      sweepAbandonedCheckouts(database().db, settings, minutes(2)),
    ]);
    expect(counts[0]! + counts[1]!).toBe(12);
    const mails = await queuedMails(db());
    expect(mails).toHaveLength(12);
    expect(
      new Set(mails.map((mail) => (mail.payload as { checkoutId: string }).checkoutId)).size,
    ).toBe(12);
  });

  describe('the e-mail and its links', () => {
    let dataDir = '';
    beforeEach(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'vitrine-abandoned-'));
    });
    afterEach(() => rm(dataDir, { recursive: true, force: true }));

    async function sendDue(): Promise<string> {
      await sweepAbandonedCheckouts(
        db(),
        settingsWith({ abandoned_checkout_delay_minutes: 1 }),
        minutes(1),
      );
      const [job] = await queuedMails(db());
      const env = parseEnv({
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        PUBLIC_URL: 'https://loja.test',
      });
      const handlers = abandonedCheckoutHandlers({
        env,
        db: db(),
        settings: settingsWith(),
        mailSending: async () => ({}),
        now: () => minutes(2),
      });
      await handlers[ABANDONED_RECOVERY_TOPIC]!(job!.payload, new AbortController().signal);
      const [sent] = await db().select().from(abandonedCheckouts);
      expect(sent!.emailedAt).toEqual(minutes(2));
      const folder = join(dataDir, 'mail');
      const names = await readdir(folder);
      expect(names).toHaveLength(1);
      return (await readFile(join(folder, names[0]!), 'utf8'))
        .replace(/=\r?\n/g, '')
        .replaceAll('=3D', '=');
    }

    const keyOf = (mail: string, path: string) =>
      new URL(
        mail.match(new RegExp(`https://loja\\.test${path}\\?chave=[\\w-]+`))![0],
      ).searchParams.get('chave')!;

    it('carries the cart, a restore link and one-click unsubscribe headers', async () => {
      await typeAtCheckout(db(), 'ana@example.com');
      const mail = await sendDue();
      expect(mail).toContain('Subject: =?UTF-8?Q?Seu_carrinho_est=C3=A1_esperando');
      expect(mail).toContain('2 =C3=97 Fone de Ouvido');
      expect(mail).toMatch(
        /List-Unsubscribe:\s+<https:\/\/loja\.test\/carrinho\/descadastrar\?chave=[\w-]+>/,
      );
      expect(mail).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
      const unsubscribe = keyOf(mail, '/carrinho/descadastrar');
      expect(await unsubscribeKeyEmail(db(), unsubscribe, minutes(3))).toBe('ana@example.com');
      expect(await unsubscribeByKey(db(), 'not-a-key', minutes(3))).toBe(false);
      expect(await unsubscribeByKey(db(), unsubscribe, minutes(3))).toBe(true);
      expect(await isRecoveryOptedOut(db(), 'ana@example.com')).toBe(true);
    });

    it('restores the cart on a fresh browser, priced today, and counts the order as recovered', async () => {
      await typeAtCheckout(db(), 'ana@example.com');
      const mail = await sendDue();
      const key = keyOf(mail, '/carrinho/recuperar');
      await db().update(products).set({ priceCents: 25000 }).where(eq(products.id, FONE));
      const fresh = new Request('http://loja.test/carrinho/recuperar');
      const context = { db: db(), settings: settingsWith() };
      expect(await restoreAbandonedCart(context, fresh, 'wrong', minutes(3))).toBeNull();
      const headers = await restoreAbandonedCart(context, fresh, key, minutes(3));
      const cookies = headers!.getSetCookie().map(cookiePart);
      const browser = new Request('http://loja.test/', { headers: { Cookie: cookies.join('; ') } });
      const cart = await readCart(browser);
      expect(cart).toMatchObject([{ quantity: 2, seenPriceCents: 25000 }]);
      const recoveryCookie = cookies.find((cookie) => cookie.startsWith('vitrine_checkout='))!;
      const placed = await order(db(), 'outra@example.com', recoveryCookie, cart);
      const [row] = await db().select().from(abandonedCheckouts);
      expect(row).toMatchObject({ status: 'converted', recovered: true, orderId: placed.orderId });
      expect(
        await recoveredSales(db(), { from: '2000-01-01', to: '2100-01-01' }, 'America/Sao_Paulo'),
      ).toMatchObject({ orders: 1 });
      // Once ordered, the link restores nothing more.
      expect(await restoreAbandonedCart(context, fresh, key, minutes(4))).toBeNull();
    });

    it('restores nothing once the cart has expired', async () => {
      await typeAtCheckout(db(), 'ana@example.com');
      const mail = await sendDue();
      const key = keyOf(mail, '/carrinho/recuperar');
      const later = new Date(T0.getTime() + 31 * 24 * 60 * 60_000);
      const fresh = new Request('http://loja.test/carrinho/recuperar');
      expect(
        await restoreAbandonedCart({ db: db(), settings: settingsWith() }, fresh, key, later),
      ).toBeNull();
    });
  });

  it('lists what it holds about an e-mail and deletes it, keeping the opt-out', async () => {
    await typeAtCheckout(db(), 'ana@example.com', T0, { recoveryOptOut: 'on' });
    await typeAtCheckout(db(), 'bia@example.com');
    const held = await recoveryDataOf(db(), 'Ana@example.com');
    expect(held.optedOutAt).toEqual(T0);
    expect(held.checkouts).toMatchObject([{ name: 'Ana Souza', valueCents: 59980 }]);
    expect(await deleteRecoveryData(db(), 'ana@example.com')).toBe(1);
    expect((await recoveryDataOf(db(), 'ana@example.com')).checkouts).toEqual([]);
    expect(await isRecoveryOptedOut(db(), 'ana@example.com')).toBe(true);
    expect(await db().select().from(abandonedCheckouts)).toHaveLength(1);
  });
});

/** What a route answered: its status, its data and its Set-Cookie lines. */
async function answerOf(call: () => Promise<unknown>) {
  let answer: unknown;
  try {
    answer = await call();
  } catch (thrown) {
    answer = thrown;
  }
  if (answer instanceof Response) {
    return {
      status: answer.status,
      data: null as unknown,
      location: answer.headers.get('Location'),
      cookies: answer.headers.getSetCookie(),
    };
  }
  const { data, init } = answer as { data: unknown; init: ResponseInit | null };
  return {
    status: init?.status ?? 200,
    data,
    location: null,
    cookies: new Headers(init?.headers).getSetCookie(),
  };
}

describeDb('the abandoned checkouts routes', ({ db }) => {
  type Args = Parameters<typeof contactAction>[0];
  const context = () =>
    ({
      db: db(),
      settings: settingsWith({ abandoned_checkout_delay_minutes: 1 }),
      clientIp: shopperAddress(),
      checkoutRateLimit: 20,
    }) as unknown as Args['context'];
  const call = <A>(route: (args: A) => unknown, request: Request) =>
    answerOf(async () => route({ request, context: context(), params: {} } as A));

  beforeEach(async () => {
    await db()
      .insert(products)
      .values({ id: FONE, name: 'Fone de Ouvido', priceCents: 29990, stockQuantity: 50 });
    vi.spyOn(logger, 'info').mockImplementation(() => {});
  });
  afterEach(() => vi.restoreAllMocks());

  it('/checkout/contato keeps a valid contact, refuses an invalid one in pt-BR, takes POST only', async () => {
    const refused = await call(contactAction, await contactRequest({ customerEmail: 'x@y' }));
    expect(refused).toMatchObject({
      status: 400,
      data: { ok: false, fieldErrors: { customerEmail: 'E-mail inválido.' } },
    });
    const saved = await call(contactAction, await contactRequest({ customerEmail: 'a@b.com' }));
    expect(saved.status).toBe(200);
    expect(saved.cookies[0]).toMatch(/^vitrine_checkout=/);
    const get = new Request('http://loja.test/checkout/contato');
    expect((await call(contactLoader, get)).status).toBe(405);
  });

  it('/carrinho/recuperar and /carrinho/descadastrar: a key that names nothing is a 404', async () => {
    const url = (path: string) => `http://loja.test${path}?chave=${'A'.repeat(32)}`;
    const recover = await call(recoverLoader, new Request(url('/carrinho/recuperar')));
    expect(recover.status).toBe(404);
    const ask = await call(unsubscribeLoader, new Request(url('/carrinho/descadastrar')));
    expect(ask).toMatchObject({ status: 404, data: { kind: 'invalid' } });
    const post = new Request(url('/carrinho/descadastrar'), {
      method: 'POST',
      body: 'List-Unsubscribe=One-Click',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(await call(unsubscribeAction, post)).toMatchObject({ status: 404 });
  });

  it('the e-mail links: restore lands on /cart with the cart; unsubscribe asks, then a cookieless POST does it', async () => {
    // The routes read the machine's clock: the checkout is typed a little before it.
    const typed = new Date(Date.now() - 2 * 60_000);
    await typeAtCheckout(db(), 'ana@example.com', typed);
    const settings = settingsWith({ abandoned_checkout_delay_minutes: 1 });
    await sweepAbandonedCheckouts(db(), settings, new Date(typed.getTime() + 60_000));
    const [row] = await db().select().from(abandonedCheckouts);
    const mail = await issueRecoveryMail(db(), row!.id, new Date(typed.getTime() + 60_000));
    const recover = await call(
      recoverLoader,
      new Request(`http://loja.test/carrinho/recuperar?chave=${mail!.restoreKey}`),
    );
    expect(recover).toMatchObject({ status: 303, location: '/cart' });
    expect(recover.cookies.map((cookie) => cookie.split('=')[0])).toEqual([
      'vitrine_cart',
      'vitrine_checkout',
    ]);
    const link = `http://loja.test/carrinho/descadastrar?chave=${mail!.unsubscribeKey}`;
    expect(await call(unsubscribeLoader, new Request(link))).toMatchObject({
      status: 200,
      data: { kind: 'ask', email: 'an***@example.com' },
    });
    expect(await isRecoveryOptedOut(db(), 'ana@example.com')).toBe(false);
    const oneClick = new Request(link, {
      method: 'POST',
      body: 'List-Unsubscribe=One-Click',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(await call(unsubscribeAction, oneClick)).toMatchObject({
      status: 200,
      data: { kind: 'done' },
    });
    expect(await isRecoveryOptedOut(db(), 'ana@example.com')).toBe(true);
  });
});
