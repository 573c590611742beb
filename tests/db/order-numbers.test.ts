import { randomUUID } from 'node:crypto';

import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import type { Db } from '~/db/database.server';
import { orders, outbox, products } from '~/db/schema';
import { sendOrderLink } from '~/flows/order-link.server';
import { placeOrder } from '~/flows/place-order.server';
import { ORDER_LOOKUP_MESSAGES } from '~/modules/orders';
import { parseOrderFilters } from '~/modules/orders/index.admin';
import { listAdminOrders } from '~/modules/orders/index.admin.server';
import { getOrder, orderLookupSchema } from '~/modules/orders/index.server';
import { RATE_LIMITS } from '~/modules/rate-limits/index.server';
import { defaultSettings } from '~/modules/settings';
import { action as orderHistoryAction } from '~/routes/store/order-history';

import { describeDb } from '../support/db';
import { acrossMigration } from '../support/migrations';
import { shopperCheckout } from '../support/visitor';
import { shopperAddress, shopperCpf } from '../support/shoppers';

const PRODUCT = '5a3b1e00-0000-4000-8000-00000000d001';

async function seed(db: Db): Promise<void> {
  await db
    .insert(products)
    .values({ id: PRODUCT, name: 'Cabo USB-C', priceCents: 3990, stockQuantity: 1000 });
}

/** An order placed through the checkout's flow, by a shopper of its own; its id. */
async function place(db: Db, customer: { email?: string; cpf?: string } = {}): Promise<string> {
  const result = await placeOrder(
    db,
    {
      form: shopperCheckout({
        ...(customer.email ? { customerEmail: customer.email } : {}),
        ...(customer.cpf ? { customerCpf: customer.cpf } : {}),
      }),
      cart: [
        {
          productId: PRODUCT,
          variantId: null,
          quantity: 1,
          seenPriceCents: 3990,
          seenName: 'Cabo USB-C',
        },
      ],
      orderToken: randomUUID(),
      clientAddress: shopperAddress(),
      trackingParameters: {},
      settings: defaultSettings(),
    },
    { tracking: false },
  );
  if (!result.ok) throw new Error(`Order refused: ${JSON.stringify(result)}`);
  return result.orderId;
}

async function numberOf(db: Db, orderId: string): Promise<number> {
  const [row] = await db
    .select({ number: orders.number })
    .from(orders)
    .where(eq(orders.id, orderId));
  return row!.number;
}

const linkJobs = (db: Db) => db.select().from(outbox).where(eq(outbox.topic, 'email.order_link'));

const lookup = (contact: string, number: string) => orderLookupSchema.parse({ contact, number });

describeDb('order numbers', ({ db }) => {
  it('start at 1001 and name the order as #1001', async () => {
    await seed(db());
    const first = await place(db());
    const second = await place(db());
    expect(await numberOf(db(), first)).toBe(1001);
    expect(await numberOf(db(), second)).toBe(1002);
    expect((await getOrder(db(), first))?.number).toBe('#1001');
  });

  it('are distinct for 50 checkouts placed at once', async () => {
    await seed(db());
    const ids = await Promise.all(Array.from({ length: 50 }, () => place(db())));
    const numbers = await Promise.all(ids.map((id) => numberOf(db(), id)));
    expect(new Set(ids).size).toBe(50);
    expect(new Set(numbers).size).toBe(50);
    expect(Math.min(...numbers)).toBeGreaterThanOrEqual(1001);
  });

  it('are never reused, not even after the last order is deleted', async () => {
    await seed(db());
    const first = await place(db());
    await db().delete(orders).where(eq(orders.id, first));
    expect(await numberOf(db(), await place(db()))).toBe(1002);
  });

  it('are refused twice by the database itself', async () => {
    await seed(db());
    const first = await place(db());
    const second = await place(db());
    await expect(
      db().update(orders).set({ number: 1001 }).where(eq(orders.id, second)),
    ).rejects.toThrow();
    expect(await numberOf(db(), first)).toBe(1001);
  });

  it("find an order in the admin's search, with or without '#'", async () => {
    await seed(db());
    // A bare number also finds the orders whose CPF holds it (admin-orders.server.ts): these
    // shoppers' CPFs never hold the numbers searched, so each search has one right answer.
    const searched = ['1011', '1003', '9999'];
    const cpf = (): string => {
      const candidate = shopperCpf();
      const digits = candidate.replace(/\D/g, '');
      return searched.some((number) => digits.includes(number)) ? cpf() : candidate;
    };
    for (let i = 0; i < 12; i++) await place(db(), { cpf: cpf() });
    const search = async (q: string) => {
      const page = await listAdminOrders(db(), parseOrderFilters(new URLSearchParams({ q })), {
        timeZone: 'America/Sao_Paulo',
      });
      return page.orders.map((order) => order.number);
    };
    expect(await search('#1011')).toEqual(['#1011']);
    expect(await search('1011')).toEqual(['#1011']);
    expect(await search('#9999')).toEqual([]);
    expect(await search('Maria #1003')).toEqual(['#1003']);
  });
});

describeDb("'Encontrar meu pedido'", ({ db }) => {
  it('queues the link of the order whose number and e-mail or CPF match, and only then', async () => {
    await seed(db());
    const cpf = '529.982.247-25';
    const orderId = await place(db(), { email: 'ana@example.com', cpf });
    await place(db(), { email: 'bia@example.com' });

    // Number and e-mail (any case), number and CPF (masked or not): the link goes.
    expect(await sendOrderLink(db(), lookup(' Ana@Example.COM ', '#1001'))).toBe(true);
    expect(await sendOrderLink(db(), lookup(cpf, '1001'))).toBe(true);
    expect(await sendOrderLink(db(), lookup('52998224725', '# 1001'))).toBe(true);
    // Another order's number, another e-mail, a number no order has: nothing.
    expect(await sendOrderLink(db(), lookup('ana@example.com', '1002'))).toBe(false);
    expect(await sendOrderLink(db(), lookup('bia@example.com', '1001'))).toBe(false);
    expect(await sendOrderLink(db(), lookup('ana@example.com', '#4242'))).toBe(false);

    const jobs = await linkJobs(db());
    expect(jobs).toHaveLength(3);
    expect(jobs.every((job) => (job.payload as { orderId: string }).orderId === orderId)).toBe(
      true,
    );
  });

  it('reads what people type and refuses the rest in pt-BR', () => {
    const refused = (contact: string, number: string) =>
      orderLookupSchema.safeParse({ contact, number }).error?.issues.map((issue) => issue.message);
    expect(refused('', '')).toEqual([ORDER_LOOKUP_MESSAGES.contact, ORDER_LOOKUP_MESSAGES.number]);
    expect(refused('ana@', '1001')).toEqual([ORDER_LOOKUP_MESSAGES.contactInvalid]);
    expect(refused('111.111.111-11', '1001')).toEqual([ORDER_LOOKUP_MESSAGES.contactInvalid]);
    expect(refused('ana@example.com', 'B099C936')).toEqual([ORDER_LOOKUP_MESSAGES.numberInvalid]);
  });

  describe('its action', () => {
    const context = (clientIp: string) =>
      ({ db: db(), clientIp }) as unknown as Parameters<typeof orderHistoryAction>[0]['context'];
    const submit = async (fields: Record<string, string>, clientIp = shopperAddress()) => {
      const request = new Request('http://loja.test/historico', {
        method: 'POST',
        body: new URLSearchParams(fields),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
      const answer = (await orderHistoryAction({
        request,
        context: context(clientIp),
        params: {},
      } as Parameters<typeof orderHistoryAction>[0])) as unknown as {
        data: { ok: boolean; toast: { message: string } };
        init: { status?: number } | null;
      };
      return {
        status: answer.init?.status ?? 200,
        ok: answer.data.ok,
        message: answer.data.toast.message,
      };
    };

    it('answers the same whether or not an order matched', async () => {
      await seed(db());
      await place(db(), { email: 'ana@example.com' });
      const matched = await submit({ contact: 'ana@example.com', number: '#1001' });
      const unmatched = await submit({ contact: 'ana@example.com', number: '#1002' });
      const stranger = await submit({ contact: 'ze@example.com', number: '1001' });
      const expected = { status: 200, ok: true, message: ORDER_LOOKUP_MESSAGES.sent };
      expect(matched).toEqual(expected);
      expect(unmatched).toEqual(expected);
      expect(stranger).toEqual(expected);
      expect(await linkJobs(db())).toHaveLength(1);
    });

    it('without JavaScript, sends the browser back to the history with the same message', async () => {
      await seed(db());
      await place(db(), { email: 'ana@example.com' });
      for (const number of ['1001', '1002']) {
        const request = new Request('http://loja.test/historico', {
          method: 'POST',
          body: new URLSearchParams({ contact: 'ana@example.com', number }),
          headers: {
            'Content-Type': 'application/x-www-form-urlencoded',
            'Sec-Fetch-Dest': 'document',
          },
        });
        const answer = (await orderHistoryAction({
          request,
          context: context(shopperAddress()),
          params: {},
        } as Parameters<typeof orderHistoryAction>[0])) as Response;
        expect(answer.status).toBe(303);
        expect(answer.headers.get('Location')).toBe('/historico?busca=enviada#encontrar-pedido');
      }
    });

    it('refuses a malformed form with a 400 and each field’s message', async () => {
      const answer = await submit({ contact: 'ana', number: 'abc' });
      expect(answer).toMatchObject({ status: 400, ok: false });
    });

    it('limits one address, and one e-mail from any address', async () => {
      await seed(db());
      await place(db(), { email: 'ana@example.com' });
      const address = shopperAddress();
      for (let i = 0; i < RATE_LIMITS.orderLookup.limit; i++) {
        expect(
          (await submit({ contact: `x${i}@example.com`, number: '1001' }, address)).status,
        ).toBe(200);
      }
      const limited = await submit({ contact: 'ana@example.com', number: '1001' }, address);
      expect(limited.status).toBe(429);
      expect(limited.message).toMatch(
        /^Muitas buscas de pedido em pouco tempo\. Tente de novo em \d+ minutos?\.$/,
      );

      // One e-mail, each attempt from a new address: past the limit, the same answer and no
      // more e-mails to its inbox.
      const limit = RATE_LIMITS.orderLookupForContact.limit;
      for (let i = 0; i < limit + 2; i++) {
        const contact = i % 2 ? 'ANA@example.com' : 'ana@example.com';
        expect(await submit({ contact, number: '1001' })).toEqual({
          status: 200,
          ok: true,
          message: ORDER_LOOKUP_MESSAGES.sent,
        });
      }
      expect(await linkJobs(db())).toHaveLength(limit);
    });

    it("lets no stranger spend an owner's look-ups: guesses that match no order count only against their own address", async () => {
      await seed(db());
      await place(db(), { email: 'ana@example.com' });
      // A stranger tries numbers for Ana's e-mail from many addresses.
      for (let i = 0; i < RATE_LIMITS.orderLookupForContact.limit * 2; i++) {
        expect((await submit({ contact: 'ana@example.com', number: `${2001 + i}` })).status).toBe(
          200,
        );
      }
      expect(await linkJobs(db())).toHaveLength(0);
      // Ana, knowing her order's number, still gets its link.
      await submit({ contact: 'ana@example.com', number: '1001' });
      expect(await linkJobs(db())).toHaveLength(1);
    });
  });
});

describe('the order numbers migration', () => {
  it('numbers the orders already there in the order they were placed, from 1001', async () => {
    await acrossMigration(
      '_order_numbers',
      async (client) => {
        // Inserted out of order: the numbers follow created_at, not the rows' order on disk.
        const placedAt = ['2026-03-02', '2026-01-15', '2026-02-20'];
        for (const [i, day] of placedAt.entries()) {
          await client.query(
            `insert into orders (customer_name, customer_email, customer_phone, customer_cpf,
              shipping_zip, shipping_street, shipping_number, shipping_neighborhood, shipping_city,
              shipping_state, subtotal_cents, total_amount_cents, order_token, created_at)
             values ('Ana', $1, '11987654321', '52998224725', '01310100', 'Rua', '1', 'Centro',
              'São Paulo', 'SP', 100, 100, 'token', $2)`,
            [`ana${i}@example.com`, `${day}T12:00:00Z`],
          );
        }
      },
      async (client) => {
        const numbered = await client.query<{ day: string; number: number }>(
          `select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, number from orders order by number`,
        );
        expect(numbered.rows).toEqual([
          { day: '2026-01-15', number: 1001 },
          { day: '2026-02-20', number: 1002 },
          { day: '2026-03-02', number: 1003 },
        ]);
        const next = await client.query<{ number: number }>(
          `insert into orders (customer_name, customer_email, customer_phone, customer_cpf,
            shipping_zip, shipping_street, shipping_number, shipping_neighborhood, shipping_city,
            shipping_state, subtotal_cents, total_amount_cents, order_token)
           values ('Bia', 'bia@example.com', '11987654321', '52998224725', '01310100', 'Rua', '1',
            'Centro', 'São Paulo', 'SP', 100, 100, 'token') returning number`,
        );
        expect(next.rows[0]?.number).toBe(1004);
      },
    );
  });
});
