import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import type { Db } from '~/db/database.server';
import {
  orders,
  outbox,
  products,
  restockRequests,
  reviews,
  shopperAddresses,
  shopperCodes,
  shoppers,
  shopperSessions,
} from '~/db/schema';
import {
  accountPage,
  deleteShopperAccount,
  runAccountAction,
  shopperDataExport,
} from '~/flows/shopper-account.server';
import {
  askForShopperCode,
  SHOPPER_CODE_TOPIC,
  signInWithCode,
} from '~/flows/shopper-sign-in.server';
import { requestRestockAlert } from '~/modules/catalog/index.server';
import { isRecoveryOptedOut, setRecoveryOptOut } from '~/modules/recovery/index.server';
import { accountActionSchema, ACCOUNT_MESSAGES, CODE_TTL_MS } from '~/modules/shoppers';
import {
  checkShopperCode,
  findSignedInShopper,
  issueShopperCode,
  type ShopperCodePurpose,
  type SignedInShopper,
} from '~/modules/shoppers/index.server';
import { parseFormData } from '~/lib/form';

import { action as accountAction, loader as accountLoader } from '~/routes/store/account';
import { loader as dataLoader } from '~/routes/store/account-data';
import { action as signInAction } from '~/routes/store/account-sign-in';
import { action as signOutAction } from '~/routes/store/account-sign-out';

import { describeDb } from '../support/db';
import { insertOrderRow } from '../support/orders';

const EMAIL = 'maria@example.com';
const IP = '203.0.113.9';
const PRODUCT = '5a3b1e00-0000-4000-8000-00000000f001';
const ADDRESS = {
  zipCode: '13010-000',
  street: 'Rua Barão de Jaguara',
  number: '100',
  complement: 'apto 12',
  neighborhood: 'Centro',
  city: 'Campinas',
  state: 'SP',
};

/** Asks for a code as the page does and returns the digits its e-mail would carry. */
async function codeFor(
  db: Db,
  email = EMAIL,
  purpose: ShopperCodePurpose = 'sign-in',
  now = new Date(),
): Promise<string> {
  const asked = await askForShopperCode(db, { email, ip: IP, purpose }, now);
  if (!asked.ok) throw new Error(asked.message);
  const jobs = await db
    .select({ payload: outbox.payload })
    .from(outbox)
    .where(eq(outbox.topic, SHOPPER_CODE_TOPIC))
    .orderBy(asc(outbox.id));
  const { codeId } = jobs.at(-1)!.payload as { codeId: string };
  const mail = await issueShopperCode(db, codeId, now);
  if (!mail) throw new Error('No code issued');
  return mail.code;
}

const wrongOf = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

/** Signs a fresh browser in; the request that carries its cookie, and the shopper. */
async function signIn(
  db: Db,
  email = EMAIL,
): Promise<{ request: Request; shopper: SignedInShopper }> {
  const code = await codeFor(db, email);
  const signed = await signInWithCode(
    db,
    new Request('http://loja.test/conta/entrar'),
    { email, code },
    new Date(),
  );
  if (!signed.ok) throw new Error(signed.message);
  const request = new Request('http://loja.test/conta', {
    headers: { Cookie: signed.setCookie.split(';')[0]! },
  });
  const shopper = await findSignedInShopper(db, request, new Date());
  if (!shopper) throw new Error('Not signed in');
  return { request, shopper };
}

const action = (input: Record<string, string | string[]>) => {
  const form = new FormData();
  for (const [key, value] of Object.entries(input)) {
    for (const item of [value].flat()) form.append(key, item);
  }
  const parsed = parseFormData(form, accountActionSchema, { repeatable: ['enabled'] });
  if (!parsed.ok) throw new Error(parsed.error);
  if (parsed.data.intent === 'delete') throw new Error('The deletion has its own flow');
  return parsed.data;
};

describeDb('shopper accounts', ({ db }) => {
  it('keeps only a salted hash of the code, which signs in once', async () => {
    const code = await codeFor(db());
    const rows = await db().select().from(shopperCodes);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(`"${code}"`);
    expect(JSON.stringify(await db().select().from(outbox))).not.toContain(code);

    const request = new Request('http://loja.test/conta/entrar');
    const first = await signInWithCode(db(), request, { email: EMAIL, code }, new Date());
    expect(first.ok).toBe(true);
    expect(first.ok && first.setCookie).toMatch(/^vitrine_conta=.+Max-Age=7776000/);
    const again = await signInWithCode(db(), request, { email: EMAIL, code }, new Date());
    expect(again).toEqual({ ok: false, message: ACCOUNT_MESSAGES.codeSpent, spent: true });
    expect(await db().select({ email: shoppers.email }).from(shoppers)).toEqual([{ email: EMAIL }]);
    // Apart from staff sessions: its own table.
    expect(await db().select().from(shopperSessions)).toHaveLength(1);
  });

  it('refuses the sixth try and every one after it, right or not, also when they come at once', async () => {
    const code = await codeFor(db());
    const wrong = wrongOf(code);
    const now = new Date();
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        checkShopperCode(db(), { email: EMAIL, purpose: 'sign-in', code: wrong }, now),
      ),
    );
    expect(results.filter((result) => result === 'wrong')).toHaveLength(5);
    expect(results.filter((result) => result === 'spent')).toHaveLength(15);
    expect(await checkShopperCode(db(), { email: EMAIL, purpose: 'sign-in', code }, now)).toBe(
      'spent',
    );
    const [row] = await db().select({ tries: shopperCodes.tries }).from(shopperCodes);
    expect(row!.tries).toBe(5);
  });

  it('signs in once when the right code is sent twice at once', async () => {
    const code = await codeFor(db());
    const now = new Date();
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        checkShopperCode(db(), { email: EMAIL, purpose: 'sign-in', code }, now),
      ),
    );
    expect(results.filter((result) => result === 'ok')).toHaveLength(1);
  });

  it('lets a code work for ten minutes, for its own purpose, until a newer one replaces it', async () => {
    const asked = new Date('2026-03-10T12:00:00Z');
    const code = await codeFor(db(), EMAIL, 'sign-in', asked);
    const late = new Date(asked.getTime() + CODE_TTL_MS + 1000);
    expect(await checkShopperCode(db(), { email: EMAIL, purpose: 'sign-in', code }, late)).toBe(
      'spent',
    );

    const fresh = await codeFor(db(), EMAIL, 'sign-in', asked);
    expect(
      await checkShopperCode(db(), { email: EMAIL, purpose: 'delete', code: fresh }, asked),
    ).toBe('spent');
    const newer = await codeFor(db(), EMAIL, 'sign-in', asked);
    if (newer !== fresh) {
      expect(
        await checkShopperCode(db(), { email: EMAIL, purpose: 'sign-in', code: fresh }, asked),
      ).toBe('wrong');
    }
    expect(
      await checkShopperCode(db(), { email: EMAIL, purpose: 'sign-in', code: newer }, asked),
    ).toBe('ok');
  });

  it('throttles codes asked for one e-mail from anywhere, and from one address', async () => {
    const now = new Date();
    for (let i = 0; i < 5; i++) {
      expect(
        await askForShopperCode(
          db(),
          { email: EMAIL, ip: `198.51.100.${i}`, purpose: 'sign-in' },
          now,
        ),
      ).toEqual({ ok: true });
    }
    const refused = await askForShopperCode(
      db(),
      { email: EMAIL, ip: '198.51.100.99', purpose: 'sign-in' },
      now,
    );
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.message).toMatch(
      /^Muitos códigos pedidos\. Aguarde (1 hora|\d+ minutos) e tente novamente\.$/,
    );

    for (let i = 0; i < 20; i++) {
      await askForShopperCode(
        db(),
        { email: `c${i}@example.com`, ip: IP, purpose: 'sign-in' },
        now,
      );
    }
    const fromAddress = await askForShopperCode(
      db(),
      { email: 'outra@example.com', ip: IP, purpose: 'sign-in' },
      now,
    );
    expect(fromAddress.ok).toBe(false);
  });

  it('shows the orders placed with the e-mail on any browser, and keeps addresses with one default', async () => {
    await insertOrderRow(db(), { cents: 12990, orderToken: 'outro-navegador' });
    await db().update(orders).set({ customerEmail: EMAIL });
    await insertOrderRow(db(), { cents: 5000 });
    await db()
      .update(orders)
      .set({ customerEmail: 'outra@example.com' })
      .where(eq(orders.totalAmountCents, 5000));
    const { shopper } = await signIn(db());

    const context = { ip: IP, now: new Date() };
    expect(
      await runAccountAction(
        db(),
        shopper,
        action({ intent: 'save-address', ...ADDRESS }),
        context,
      ),
    ).toEqual({
      ok: true,
      message: ACCOUNT_MESSAGES.addressSaved,
    });
    await runAccountAction(
      db(),
      shopper,
      action({ intent: 'save-address', ...ADDRESS, street: 'Rua Dois', isDefault: 'on' }),
      context,
    );
    const page = await accountPage(db(), shopper, 'America/Sao_Paulo');
    expect(page.orders.map((order) => order.totalCents)).toEqual([12990]);
    expect(page.orders[0]!.status).toBe('pending');
    expect(page.addresses.map((address) => [address.street, address.isDefault])).toEqual([
      ['Rua Dois', true],
      ['Rua Barão de Jaguara', false],
    ]);
    expect(page.addresses[1]).toMatchObject({ zipCode: '13010000', complement: 'apto 12' });

    // Another shopper's address is not theirs to change.
    const other = await signIn(db(), 'outra@example.com');
    const removed = await runAccountAction(
      db(),
      other.shopper,
      action({ intent: 'remove-address', addressId: page.addresses[0]!.id }),
      context,
    );
    expect(removed).toEqual({ ok: false, message: ACCOUNT_MESSAGES.addressMissing, status: 404 });
    // Removing the default makes the next one the default.
    await runAccountAction(
      db(),
      shopper,
      action({ intent: 'remove-address', addressId: page.addresses[0]!.id }),
      context,
    );
    const after = await accountPage(db(), shopper, 'America/Sao_Paulo');
    expect(after.addresses.map((address) => [address.street, address.isDefault])).toEqual([
      ['Rua Barão de Jaguara', true],
    ]);
  });

  it('keeps preferences and favourites with the account', async () => {
    await db()
      .insert(products)
      .values({ id: PRODUCT, name: 'Caneca', priceCents: 3000, stockQuantity: 5 });
    const { shopper } = await signIn(db());
    const context = { ip: IP, now: new Date() };
    // The checkout reminders' preference is recovery's opt-out, which their e-mails' link writes.
    const reminders = async () =>
      (await accountPage(db(), shopper, 'America/Sao_Paulo')).preferences.checkout_reminders;
    expect(await reminders()).toBe(true);
    await runAccountAction(db(), shopper, action({ intent: 'preferences' }), context);
    expect(await reminders()).toBe(false);
    expect(await isRecoveryOptedOut(db(), EMAIL)).toBe(true);
    await runAccountAction(
      db(),
      shopper,
      action({ intent: 'preferences', enabled: ['checkout_reminders'] }),
      context,
    );
    expect(await reminders()).toBe(true);
    await setRecoveryOptOut(db(), EMAIL.toUpperCase(), true, new Date());
    expect(await reminders()).toBe(false);

    const unknown = '5a3b1e00-0000-4000-8000-00000000f0ff';
    const merged = await runAccountAction(
      db(),
      shopper,
      action({ intent: 'favorites', ids: `${PRODUCT},${unknown},junk` }),
      context,
    );
    expect(merged).toMatchObject({ ok: true, favoriteIds: [PRODUCT] });
    expect((await accountPage(db(), shopper, 'UTC')).favorites).toEqual([
      { id: PRODUCT, name: 'Caneca' },
    ]);
  });

  it('exports everything held on the shopper, and deletes the account with a fresh code but keeps the orders', async () => {
    await db()
      .insert(products)
      .values({ id: PRODUCT, name: 'Caneca', priceCents: 3000, stockQuantity: 0 });
    const order = await insertOrderRow(db(), { cents: 12990, status: 'delivered' });
    await db().insert(reviews).values({
      productId: PRODUCT,
      orderId: order.id,
      customerName: 'Maria da Silva',
      rating: 5,
      source: 'buyer',
      status: 'visible',
    });
    await requestRestockAlert(db(), { productId: PRODUCT, email: EMAIL });
    const { request, shopper } = await signIn(db());
    const context = { ip: IP, now: new Date() };
    await runAccountAction(db(), shopper, action({ intent: 'save-address', ...ADDRESS }), context);

    const exported = await shopperDataExport(db(), shopper, new Date('2026-03-10T12:00:00Z'));
    expect(exported.exportedAt).toBe('2026-03-10T12:00:00.000Z');
    expect(exported.account?.email).toBe(EMAIL);
    expect(exported.orders.map((row) => row.number)).toEqual([`#${order.number}`]);
    expect(exported.addresses).toHaveLength(1);
    expect(exported.reviews).toMatchObject([{ rating: 5, name: 'Maria da Silva' }]);
    expect(exported.restockAlerts).toHaveLength(1);
    expect(exported.sessions).toHaveLength(1);
    expect(exported.emailPreferences).toEqual([
      { key: 'checkout_reminders', label: 'Lembretes de compra não finalizada', enabled: true },
    ]);
    expect(exported.abandonedCheckouts).toEqual([]);
    expect(exported.checkoutRemindersOptedOutAt).toBeNull();
    expect(JSON.stringify(exported)).not.toContain(order.accessKey);
    // Opted out of the reminders, the export says since when; deleting the account keeps it.
    await setRecoveryOptOut(db(), EMAIL, true, new Date('2026-03-10T12:30:00Z'));
    const later = await shopperDataExport(db(), shopper, new Date('2026-03-10T13:00:00Z'));
    expect(later.emailPreferences[0]).toMatchObject({ enabled: false });
    expect(new Date(later.checkoutRemindersOptedOutAt!).toISOString()).toBe(
      '2026-03-10T12:30:00.000Z',
    );

    // A sign-in code does not delete; a delete code typed wrong does nothing.
    const signInCode = await codeFor(db());
    expect(await deleteShopperAccount(db(), shopper, signInCode, new Date())).toBe('spent');
    const deleteCode = await codeFor(db(), EMAIL, 'delete');
    expect(await deleteShopperAccount(db(), shopper, wrongOf(deleteCode), new Date())).toBe(
      'wrong',
    );
    expect(await db().select().from(shopperAddresses)).toHaveLength(1);

    expect(await deleteShopperAccount(db(), shopper, deleteCode, new Date())).toBe('deleted');
    expect(await findSignedInShopper(db(), request, new Date())).toBeNull();
    expect(await db().select().from(shoppers)).toEqual([]);
    expect(await db().select().from(shopperAddresses)).toEqual([]);
    expect(await db().select().from(shopperSessions)).toEqual([]);
    expect(await db().select().from(shopperCodes)).toEqual([]);
    expect(await db().select().from(restockRequests)).toEqual([]);
    expect(await isRecoveryOptedOut(db(), EMAIL)).toBe(true);
    expect(await db().select({ id: orders.id }).from(orders)).toEqual([{ id: order.id }]);
    expect(await db().select({ name: reviews.customerName }).from(reviews)).toEqual([{ name: '' }]);

    // Signing in again starts a new, empty account that still sees the order.
    const again = await signIn(db());
    const page = await accountPage(db(), again.shopper, 'UTC');
    expect(page.addresses).toEqual([]);
    expect(page.orders.map((row) => row.id)).toEqual([order.id]);
  });

  describe('the routes', () => {
    type Args = { request: Request; context: unknown; params: object };
    const call = async (route: (args: never) => unknown, request: Request) => {
      try {
        return (await route({
          request,
          context: { db: db(), clientIp: IP },
          params: {},
        } as Args as never)) as
          | Response
          | {
              data: {
                ok: boolean;
                toast: { message: string };
                fieldErrors: Record<string, string>;
              };
              init: { status?: number } | null;
            };
      } catch (thrown) {
        if (thrown instanceof Response) return thrown;
        throw thrown;
      }
    };
    const post = (path: string, fields: Record<string, string>, cookie?: string) =>
      new Request(`http://loja.test${path}`, {
        method: 'POST',
        body: new URLSearchParams(fields),
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          ...(cookie ? { Cookie: cookie } : {}),
        },
      });

    it('refuse bad input with pt-BR messages, and send a stranger to sign in', async () => {
      const badEmail = await call(
        signInAction,
        post('/conta/entrar', { intent: 'send', email: 'ana@' }),
      );
      expect(badEmail).not.toBeInstanceOf(Response);
      expect(
        !(badEmail instanceof Response) && [badEmail.init?.status, badEmail.data.fieldErrors],
      ).toEqual([400, { email: ACCOUNT_MESSAGES.emailInvalid }]);
      const badCode = await call(
        signInAction,
        post('/conta/entrar', { intent: 'verify', email: EMAIL, code: '12a' }),
      );
      expect(!(badCode instanceof Response) && badCode.data.fieldErrors).toEqual({
        code: ACCOUNT_MESSAGES.codeInvalid,
      });
      const noCode = await call(
        signInAction,
        post('/conta/entrar', { intent: 'verify', email: EMAIL, code: '123456' }),
      );
      expect(
        !(noCode instanceof Response) && [noCode.init?.status, noCode.data.toast.message],
      ).toEqual([410, ACCOUNT_MESSAGES.codeSpent]);

      for (const answer of [
        await call(accountLoader, new Request('http://loja.test/conta')),
        await call(accountAction, post('/conta', { intent: 'preferences' })),
        await call(dataLoader, new Request('http://loja.test/conta/dados')),
      ]) {
        expect(answer).toBeInstanceOf(Response);
        expect((answer as Response).headers.get('Location')).toBe('/conta/entrar?voltar=%2Fconta');
      }
    });

    it('download the data as a JSON attachment, refuse a junk intent, and end the session on Sair', async () => {
      const { request } = await signIn(db());
      const cookie = request.headers.get('Cookie')!;
      const file = (await call(
        dataLoader,
        new Request('http://loja.test/conta/dados', { headers: { Cookie: cookie } }),
      )) as Response;
      expect(file.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
      expect(file.headers.get('Content-Disposition')).toMatch(
        /^attachment; filename="meus-dados-\d{4}-\d{2}-\d{2}\.json"$/,
      );
      expect(JSON.parse(await file.text())).toMatchObject({ account: { email: EMAIL } });

      const junk = await call(accountAction, post('/conta', { intent: '__proto__' }, cookie));
      expect(!(junk instanceof Response) && [junk.init?.status, junk.data.toast.message]).toEqual([
        400,
        ACCOUNT_MESSAGES.intent,
      ]);

      const out = (await call(signOutAction, post('/conta/sair', {}, cookie))) as Response;
      expect(out.headers.get('Location')).toBe('/');
      expect(out.headers.get('Set-Cookie')).toMatch(/^vitrine_conta=; Max-Age=0/);
      expect(await findSignedInShopper(db(), request, new Date())).toBeNull();
    });
  });
});
