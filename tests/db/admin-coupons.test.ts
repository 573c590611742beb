import { randomUUID } from 'node:crypto';

import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import type { Db } from '~/db/database.server';
import { categories, coupons, orderAdjustments, products } from '~/db/schema';
import { deleteCategoryEverywhere, deleteProductEverywhere } from '~/flows/delete-catalog.server';
import { saveCoupon } from '~/flows/save-coupon.server';
import { parseFormData } from '~/lib/form';
import { monthToDate, resolvePeriod } from '~/lib/periods';
import {
  COUPON_FORM_REPEATABLE,
  COUPON_FORM_MESSAGES,
  couponFormSchema,
  type CouponForm,
} from '~/modules/coupons/index.admin';
import {
  couponActionSchema,
  couponListRow,
  couponsCsv,
  createCoupon,
  deleteCoupon,
  listAdminCoupons,
  listAllCoupons,
  setCouponActive,
  updateCoupon,
} from '~/modules/coupons/index.admin.server';
import type { OrderStatus } from '~/modules/orders';
import { parseOrderFilters } from '~/modules/orders/index.admin';
import {
  adminOrderBatches,
  couponOrderStats,
  listAdminOrders,
  salesMetrics,
} from '~/modules/orders/index.admin.server';

import { describeDb } from '../support/db';
import { acrossMigration } from '../support/migrations';
import { insertOrderRow } from '../support/orders';

const SAO_PAULO = 'America/Sao_Paulo';
const MANAUS = 'America/Manaus';

/** The coupon form as the dialog sends it. */
function formOf(fields: Record<string, string | string[]>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const one of [value].flat()) data.append(name, one);
  }
  return parseFormData(data, couponFormSchema, { repeatable: COUPON_FORM_REPEATABLE });
}

function validForm(fields: Record<string, string | string[]> = {}): CouponForm {
  const parsed = formOf({
    intent: 'create',
    id: randomUUID(),
    code: 'bemvindo10',
    kind: 'percent',
    value: '10',
    active: 'on',
    ...fields,
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.fieldErrors));
  return parsed.data;
}

async function create(
  db: Db,
  fields: Record<string, string | string[]> = {},
  timeZone = SAO_PAULO,
) {
  const form = validForm(fields);
  // Apart in time, so newest first is one order.
  await new Promise((resolve) => setTimeout(resolve, 5));
  const result = await createCoupon(db, form, { timeZone });
  if (!result.ok) throw new Error(result.error);
  return form.id;
}

async function orderWithCoupon(
  db: Db,
  couponId: string | null,
  options: { cents: number; status?: OrderStatus; discount?: number; createdAt?: Date },
) {
  const order = await insertOrderRow(db, options);
  const discount = options.discount ?? 1_000;
  const [coupon] = couponId
    ? await db.select({ code: coupons.code }).from(coupons).where(eq(coupons.id, couponId))
    : [];
  await db.insert(orderAdjustments).values(
    couponId
      ? {
          orderId: order.id,
          position: 0,
          kind: 'coupon',
          label: `Cupom ${coupon!.code}`,
          amountCents: -discount,
          couponId,
          couponCode: coupon!.code,
        }
      : {
          orderId: order.id,
          position: 0,
          kind: 'pix',
          label: 'Desconto PIX',
          amountCents: -discount,
        },
  );
  return order;
}

describe('the coupon form', () => {
  it('keeps the code in capitals and reads each kind’s value', () => {
    expect(validForm({ code: ' bemVindo10 ' })).toMatchObject({
      code: 'BEMVINDO10',
      kind: 'percent',
      value: 10,
      minSubtotalCents: 0,
      active: true,
      firstPurchaseOnly: false,
      productIds: [],
      startsAt: null,
      usageLimit: null,
    });
    expect(validForm({ kind: 'fixed', value: '1.234,56', minSubtotal: '150' })).toMatchObject({
      value: 123_456,
      minSubtotalCents: 15_000,
    });
    expect(validForm({ kind: 'free_shipping', value: '99' }).value).toBe(0);
  });

  it('refuses bad input with pt-BR messages beside each field', () => {
    const refused = (fields: Record<string, string | string[]>) => {
      const parsed = formOf({
        intent: 'create',
        id: randomUUID(),
        kind: 'percent',
        value: '10',
        code: 'ABC',
        ...fields,
      });
      return parsed.ok ? {} : parsed.fieldErrors;
    };
    expect(refused({ code: '' }).code).toBe(COUPON_FORM_MESSAGES.code);
    expect(refused({ code: 'BEM VINDO' }).code).toBe(COUPON_FORM_MESSAGES.codeFormat);
    expect(refused({ code: 'AÇÃO10' }).code).toBe(COUPON_FORM_MESSAGES.codeFormat);
    expect(refused({ code: 'AB' }).code).toBe(COUPON_FORM_MESSAGES.codeFormat);
    expect(refused({ kind: 'bogus' }).kind).toBe(COUPON_FORM_MESSAGES.kind);
    expect(refused({ value: '0' }).value).toBe(COUPON_FORM_MESSAGES.percent);
    expect(refused({ value: '101' }).value).toBe(COUPON_FORM_MESSAGES.percent);
    expect(refused({ value: '12,5' }).value).toBe(COUPON_FORM_MESSAGES.percent);
    expect(refused({ kind: 'fixed', value: '' }).value).toBe(COUPON_FORM_MESSAGES.amount);
    expect(refused({ kind: 'fixed', value: '0' }).value).toBe(COUPON_FORM_MESSAGES.amountZero);
    expect(refused({ kind: 'fixed', value: '10,555' }).value).toBe(
      COUPON_FORM_MESSAGES.amountDecimals,
    );
    expect(refused({ minSubtotal: 'dez' }).minSubtotal).toBe(COUPON_FORM_MESSAGES.minimumInvalid);
    expect(refused({ usageLimit: '0' }).usageLimit).toBe(COUPON_FORM_MESSAGES.limit);
    expect(refused({ usageLimitPerCustomer: '1,5' }).usageLimitPerCustomer).toBe(
      COUPON_FORM_MESSAGES.limit,
    );
    expect(refused({ startsAt: '2026-02-30T10:00' }).startsAt).toBe(COUPON_FORM_MESSAGES.date);
    expect(refused({ startsAt: '2026-12-02T10:00', endsAt: '2026-12-01T10:00' }).endsAt).toBe(
      COUPON_FORM_MESSAGES.window,
    );
    expect(refused({ productIds: ['not-a-uuid'] }).productIds).toBe(
      COUPON_FORM_MESSAGES.choiceGone,
    );
    expect(refused({ id: 'x' }).id).toBe(COUPON_FORM_MESSAGES.formExpired);
  });

  it('is one of the screen’s actions, the others refused in pt-BR', () => {
    const action = (fields: Record<string, string>) => {
      const data = new FormData();
      for (const [name, value] of Object.entries(fields)) data.append(name, value);
      return parseFormData(data, couponActionSchema, { repeatable: COUPON_FORM_REPEATABLE });
    };
    expect(action({ intent: 'deactivate', id: randomUUID() }).ok).toBe(true);
    expect(action({ intent: 'delete', id: 'x' })).toMatchObject({
      ok: false,
      error: COUPON_FORM_MESSAGES.notFound,
    });
    expect(action({ intent: 'explode' })).toMatchObject({
      ok: false,
      error: COUPON_FORM_MESSAGES.invalid,
    });
  });
});

describeDb('admin coupons', ({ db }) => {
  it('creates a coupon once per form key, its dates read on the store’s clock', async () => {
    const form = validForm({
      kind: 'fixed',
      value: '20,00',
      minSubtotal: '150,00',
      startsAt: '2026-12-01T10:00',
      endsAt: '2026-12-31T23:59',
      usageLimit: '100',
      usageLimitPerCustomer: '1',
      firstPurchaseOnly: 'on',
    });
    expect(await createCoupon(db(), form, { timeZone: MANAUS })).toEqual({ ok: true, id: form.id });
    // The same form again (a double click) changes nothing.
    expect(await createCoupon(db(), form, { timeZone: MANAUS })).toEqual({ ok: true, id: form.id });

    const [row] = await db().select().from(coupons);
    expect(row).toMatchObject({
      code: 'BEMVINDO10',
      kind: 'fixed',
      value: 2_000,
      minSubtotalCents: 15_000,
      usageLimit: 100,
      usageLimitPerCustomer: 1,
      firstPurchaseOnly: true,
      active: true,
      usedCount: 0,
    });
    // Manaus is at UTC−4.
    expect(row!.startsAt!.toISOString()).toBe('2026-12-01T14:00:00.000Z');
    expect(row!.endsAt!.toISOString()).toBe('2027-01-01T03:59:00.000Z');

    const shown = couponListRow(row!, {
      stats: undefined,
      productNames: new Map(),
      timeZone: MANAUS,
      now: new Date('2026-11-01T00:00:00Z'),
    });
    expect(shown).toMatchObject({
      valueText: 'R$ 20,00',
      minimumText: 'R$ 150,00',
      validityText: 'De 01/12/2026 às 10:00 até 31/12/2026 às 23:59',
      state: 'scheduled',
      canDelete: true,
      form: {
        value: '20,00',
        minSubtotal: '150,00',
        startsAt: '2026-12-01T10:00',
        endsAt: '2026-12-31T23:59',
      },
    });
  });

  it('refuses a code another coupon has, in any case', async () => {
    await create(db(), { code: 'FRETEGRATIS', kind: 'free_shipping' });
    const again = validForm({ code: 'freteGratis' });
    expect(await createCoupon(db(), again, { timeZone: SAO_PAULO })).toEqual({
      ok: false,
      status: 409,
      error: 'Já existe um cupom com este código.',
      field: 'code',
    });
    const other = await create(db(), { code: 'OUTRO' });
    expect(
      await updateCoupon(db(), validForm({ intent: 'update', id: other, code: 'fretegratis' }), {
        timeZone: SAO_PAULO,
      }),
    ).toMatchObject({ ok: false, status: 409, field: 'code' });
    // Another form that reuses a key is refused, not applied.
    expect(
      await createCoupon(db(), validForm({ id: other, code: 'NOVO' }), { timeZone: SAO_PAULO }),
    ).toMatchObject({ ok: false, error: COUPON_FORM_MESSAGES.formReused });
  });

  it('edits a coupon, its products and categories, and keeps its uses', async () => {
    const id = await create(db());
    await db().update(coupons).set({ usedCount: 3 }).where(eq(coupons.id, id));
    const product = randomUUID();
    const category = randomUUID();
    const saved = await updateCoupon(
      db(),
      validForm({
        intent: 'update',
        id,
        code: 'BEMVINDO15',
        value: '15',
        productIds: [product, product.toUpperCase()],
        categoryIds: [category],
      }),
      { timeZone: SAO_PAULO },
    );
    expect(saved).toEqual({ ok: true, id });
    const [row] = await db().select().from(coupons).where(eq(coupons.id, id));
    expect(row).toMatchObject({
      code: 'BEMVINDO15',
      value: 15,
      productIds: [product],
      categoryIds: [category],
      usedCount: 3,
      active: true,
    });
    // A total below the uses so far is refused in pt-BR.
    expect(
      await updateCoupon(db(), validForm({ intent: 'update', id, usageLimit: '2' }), {
        timeZone: SAO_PAULO,
      }),
    ).toEqual({
      ok: false,
      status: 409,
      error: COUPON_FORM_MESSAGES.limitBelowUses,
      field: 'usageLimit',
    });
    expect(
      await updateCoupon(db(), validForm({ intent: 'update', id: randomUUID() }), {
        timeZone: SAO_PAULO,
      }),
    ).toMatchObject({ ok: false, status: 404 });
  });

  it('names only products and categories that exist, and forgets them when they are deleted', async () => {
    const [kitchen, garden] = await db()
      .insert(categories)
      .values([{ name: 'Cozinha' }, { name: 'Jardim' }])
      .returning();
    const [mug, vase] = await db()
      .insert(products)
      .values([
        { name: 'Caneca', priceCents: 1000, categoryId: kitchen!.id },
        { name: 'Vaso', priceCents: 2000, categoryId: garden!.id },
      ])
      .returning();
    const save = (fields: Record<string, string | string[]>) =>
      saveCoupon(db(), validForm(fields), { timeZone: SAO_PAULO });
    const gone = (field: string) => ({
      ok: false,
      status: 409,
      error: 'Um dos itens escolhidos não existe mais. Recarregue a página.',
      field,
    });
    expect(await save({ productIds: [mug!.id, randomUUID()] })).toEqual(gone('productIds'));
    // A product's id is no category's.
    expect(await save({ categoryIds: [mug!.id] })).toEqual(gone('categoryIds'));
    expect(await db().select().from(coupons)).toEqual([]);

    const both = validForm({ code: 'AMBOS', productIds: [mug!.id, vase!.id.toUpperCase()] });
    expect(await saveCoupon(db(), both, { timeZone: SAO_PAULO })).toEqual({
      ok: true,
      id: both.id,
    });
    const only = validForm({ code: 'SOCANECA', productIds: [mug!.id] });
    await saveCoupon(db(), only, { timeZone: SAO_PAULO });
    const garden10 = validForm({ code: 'JARDIM', categoryIds: [garden!.id, kitchen!.id] });
    await saveCoupon(db(), garden10, { timeZone: SAO_PAULO });

    expect(await deleteProductEverywhere(db(), mug!.id.toUpperCase())).toBe(true);
    expect(await deleteCategoryEverywhere(db(), { id: kitchen!.id })).toMatchObject({ ok: true });
    const rows = new Map((await db().select().from(coupons)).map((row) => [row.code, row]));
    expect(rows.get('AMBOS')).toMatchObject({ productIds: [vase!.id], active: true });
    expect(rows.get('JARDIM')).toMatchObject({ categoryIds: [garden!.id], active: true });
    // Naming nothing would mean the whole store: the coupon is turned off instead.
    expect(rows.get('SOCANECA')).toMatchObject({ productIds: [], categoryIds: [], active: false });
    // Editing a coupon of a product deleted meanwhile is refused, not saved half-empty.
    expect(
      await save({ intent: 'update', id: only.id, code: 'SOCANECA', productIds: [mug!.id] }),
    ).toEqual(gone('productIds'));
  });

  it('deactivates and activates, and says which state each coupon is in', async () => {
    const id = await create(db());
    expect(await setCouponActive(db(), { id, active: false })).toEqual({ ok: true, id });
    const now = new Date();
    const state = async () => {
      const [row] = await db().select().from(coupons).where(eq(coupons.id, id));
      return couponListRow(row!, {
        stats: undefined,
        productNames: new Map(),
        timeZone: SAO_PAULO,
        now,
      }).state;
    };
    expect(await state()).toBe('inactive');
    await setCouponActive(db(), { id, active: true });
    expect(await state()).toBe('active');
    await db().update(coupons).set({ usageLimit: 2, usedCount: 2 }).where(eq(coupons.id, id));
    expect(await state()).toBe('used_up');
    await db()
      .update(coupons)
      .set({
        startsAt: new Date(now.getTime() - 2 * 86_400_000),
        endsAt: new Date(now.getTime() - 86_400_000),
      })
      .where(eq(coupons.id, id));
    expect(await state()).toBe('expired');
    expect(await setCouponActive(db(), { id: randomUUID(), active: false })).toMatchObject({
      status: 404,
    });
  });

  it('deletes only a coupon no order used, and refuses the others in pt-BR', async () => {
    const unused = await create(db(), { code: 'NUNCA' });
    expect(await deleteCoupon(db(), unused)).toEqual({ ok: true, id: unused });
    expect(await db().select().from(coupons)).toEqual([]);

    // Used by a cancelled order: its use was given back, but the order's adjustment keeps it.
    const given = await create(db(), { code: 'DEVOLVIDO' });
    await orderWithCoupon(db(), given, { cents: 5_000, status: 'cancelled' });
    expect(await deleteCoupon(db(), given)).toEqual({
      ok: false,
      status: 409,
      error: COUPON_FORM_MESSAGES.used,
    });
    const counted = await create(db(), { code: 'USADO' });
    await db().update(coupons).set({ usedCount: 1 }).where(eq(coupons.id, counted));
    expect(await deleteCoupon(db(), counted)).toMatchObject({
      ok: false,
      error: COUPON_FORM_MESSAGES.used,
    });
    expect(await db().select({ id: coupons.id }).from(coupons)).toHaveLength(2);
    expect(await deleteCoupon(db(), randomUUID())).toMatchObject({ status: 404 });
  });

  it('counts each coupon’s orders and their revenue, cancelled orders left out', async () => {
    const ten = await create(db(), { code: 'DEZ' });
    const free = await create(db(), { code: 'FRETE', kind: 'free_shipping' });
    const unused = await create(db(), { code: 'NADA' });
    await orderWithCoupon(db(), ten, { cents: 9_000, status: 'confirmed' });
    await orderWithCoupon(db(), ten, { cents: 4_500, status: 'pending' });
    await orderWithCoupon(db(), ten, { cents: 70_000, status: 'cancelled' });
    await orderWithCoupon(db(), free, { cents: 20_000, status: 'delivered' });
    await orderWithCoupon(db(), null, { cents: 99_000, status: 'confirmed' });

    const stats = await couponOrderStats(db(), [ten, free, unused, 'junk']);
    expect(Object.fromEntries(stats)).toEqual({
      [ten]: { orders: 2, revenueCents: 13_500 },
      [free]: { orders: 1, revenueCents: 20_000 },
    });

    const page = await listAdminCoupons(db(), { page: 9, perPage: 2 });
    expect(page).toMatchObject({ total: 3, page: 2, pageCount: 2 });
    expect(page.coupons.map((c) => c.code)).toEqual(['DEZ']);
  });

  it('exports the coupons with their uses and revenue as a spreadsheet', async () => {
    const ten = await create(db(), { code: 'DEZ', usageLimit: '50' });
    await create(db(), {
      code: 'VINTE',
      kind: 'fixed',
      value: '20',
      minSubtotal: '100',
      startsAt: '2026-12-01T00:00',
    });
    await orderWithCoupon(db(), ten, { cents: 123_456, status: 'shipped' });
    const all = await listAllCoupons(db());
    const stats = await couponOrderStats(
      db(),
      all.map((c) => c.id),
    );
    const csv = couponsCsv(
      all.map((c) => ({
        ...c,
        orders: stats.get(c.id)?.orders ?? 0,
        revenueCents: stats.get(c.id)?.revenueCents ?? 0,
      })),
      { timeZone: SAO_PAULO, now: new Date('2026-11-01T12:00:00Z') },
    );
    const lines = csv.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe(
      'Código;Tipo;Desconto;Pedido mínimo;Início;Fim;Usos;Limite de usos;Limite por cliente;Só primeira compra;Produtos;Categorias;Situação;Pedidos;Receita dos pedidos',
    );
    expect(lines[1]).toBe(
      'VINTE;Valor fixo;20,00;100,00;01/12/2026 00:00;;0;;;Não;0;0;Agendado;0;0,00',
    );
    expect(lines[2]).toBe('DEZ;Porcentagem;10%;0,00;;;0;50;;Não;0;0;Ativo;1;1234,56');
  });

  it('filters the admin’s orders by coupon code, in any case, the export too', async () => {
    const ten = await create(db(), { code: 'DEZ' });
    const other = await create(db(), { code: 'OUTRO' });
    const withTen = await orderWithCoupon(db(), ten, { cents: 9_000 });
    await orderWithCoupon(db(), other, { cents: 8_000 });
    await orderWithCoupon(db(), null, { cents: 7_000 });

    const list = async (query: string) =>
      (
        await listAdminOrders(db(), parseOrderFilters(new URLSearchParams(query)), {
          timeZone: SAO_PAULO,
        })
      ).orders.map((order) => order.id);
    expect(await list('coupon=dez')).toEqual([withTen.id]);
    expect(await list('coupon=DEZ&status=pending')).toEqual([withTen.id]);
    expect(await list('coupon=NENHUM')).toEqual([]);
    expect(await list('coupon=%00')).toHaveLength(3);
    expect(await list('')).toHaveLength(3);

    const exported = [];
    for await (const batch of adminOrderBatches(
      db(),
      parseOrderFilters(new URLSearchParams('coupon=Dez')),
      {
        timeZone: SAO_PAULO,
      },
    )) {
      exported.push(...batch.map((order) => order.id));
    }
    expect(exported).toEqual([withTen.id]);
  });

  it('adds up the period’s discounts of the orders the revenue counts', async () => {
    const ten = await create(db(), { code: 'DEZ' });
    const today = '2025-03-10';
    const at = new Date('2025-03-10T15:00:00Z');
    await orderWithCoupon(db(), ten, {
      cents: 9_000,
      status: 'confirmed',
      discount: 1_000,
      createdAt: at,
    });
    await orderWithCoupon(db(), null, {
      cents: 9_500,
      status: 'delivered',
      discount: 500,
      createdAt: at,
    });
    // Not revenue: pending and cancelled orders, and an order of another day.
    await orderWithCoupon(db(), ten, {
      cents: 9_000,
      status: 'pending',
      discount: 1_000,
      createdAt: at,
    });
    await orderWithCoupon(db(), ten, {
      cents: 9_000,
      status: 'cancelled',
      discount: 1_000,
      createdAt: at,
    });
    await orderWithCoupon(db(), ten, {
      cents: 9_000,
      status: 'confirmed',
      discount: 700,
      createdAt: new Date('2025-03-09T15:00:00Z'),
    });
    const metrics = await salesMetrics(db(), {
      period: resolvePeriod(new URLSearchParams('period=hoje'), today),
      month: monthToDate(today),
      timeZone: SAO_PAULO,
    });
    expect(metrics.periodDiscounts).toEqual({ current: 1_500, previous: 700 });
  });
});

describe('the migration that cleans coupon targets', () => {
  it('takes out of coupons the products and categories deleted before deleting did, and deactivates a coupon left naming nothing', async () => {
    const kept = randomUUID();
    const gone = randomUUID();
    const keptCategory = randomUUID();
    const goneCategory = randomUUID();
    await acrossMigration(
      '_clean_coupon_targets',
      async (client) => {
        await client.query(
          `insert into categories (id, name, slug) values ($1, 'Áudio', 'audio')`,
          [keptCategory],
        );
        await client.query(
          `insert into products (id, name, price_cents, stock_quantity) values ($1, 'Fone', 100, 1)`,
          [kept],
        );
        const coupon = (code: string, productIds: string[], categoryIds: string[]) =>
          client.query(
            `insert into coupons (code, kind, value, product_ids, category_ids)
             values ($1, 'percent', 10, $2::uuid[], $3::uuid[])`,
            [code, `{${productIds.join(',')}}`, `{${categoryIds.join(',')}}`],
          );
        await coupon('MISTO', [kept, gone], [goneCategory]);
        await coupon('SOSUMIU', [gone], [goneCategory]);
        await coupon('CATEGORIA', [], [keptCategory, goneCategory]);
        await coupon('LOJA', [], []);
      },
      async (client) => {
        const { rows } = await client.query<{
          code: string;
          product_ids: string[];
          category_ids: string[];
          active: boolean;
        }>(`select code, product_ids, category_ids, active from coupons order by code`);
        expect(rows).toEqual([
          { code: 'CATEGORIA', product_ids: [], category_ids: [keptCategory], active: true },
          { code: 'LOJA', product_ids: [], category_ids: [], active: true },
          { code: 'MISTO', product_ids: [kept], category_ids: [], active: true },
          { code: 'SOSUMIU', product_ids: [], category_ids: [], active: false },
        ]);
      },
    );
  });
});
