import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Db } from '~/db/database.server';
import { changeOrderStatusBy } from '~/flows/order-changes.server';
import { placeOrder } from '~/flows/place-order.server';
import { getOrder } from '~/modules/orders/index.server';
import { defaultSettings } from '~/modules/settings';

import { adminVisitor, signedInPage, withAdmin } from '../support/admin';
import { seriousAxeViolations } from '../support/axe';
import { launchBrowser } from '../support/browser';
import {
  signMelhorEnvioWebhook,
  startFakeMelhorEnvio,
  type FakeMelhorEnvio,
} from '../support/fake-melhorenvio';
import { sampleProduct } from '../support/sample';
import { START_BUDGET_MS, startServer, type TestServer } from '../support/server';
import { until } from '../support/until';
import { shopperAddress } from '../support/shoppers';
import { shopperCheckout } from '../support/visitor';

const TOKEN = 'me-e2e-token-4471';
const SECRET = 'me-e2e-secret-9150';
// R$ 299,90: one each, so each order is one parcel of the store's default package.
const HEADPHONES = sampleProduct('Fone de Ouvido');

/** The text of the first .eml under the server's mail folder that contains every needle. */
function emailWith(server: TestServer, ...needles: string[]) {
  return until(
    async () => {
      const folder = join(server.dataDir, 'mail');
      const names = await readdir(folder).catch(() => [] as string[]);
      for (const name of names) {
        const text = await readFile(join(folder, name), 'utf8');
        if (needles.every((needle) => text.includes(needle))) return text;
      }
      return undefined;
    },
    `an e-mail containing ${needles.join(', ')}`,
  );
}

interface PaidOrder {
  orderId: string;
  /** Digits only, as the pages write them after '#'. */
  number: string;
}

/**
 * A shopper's order placed through checkout's own flow with Correios SEDEX quoted by Melhor
 * Envio (service 2), then paid: the storefront's carrier choice is another piece of work, so the
 * order is written before the server starts.
 */
async function paidSedexOrder(db: Db): Promise<PaidOrder> {
  const placed = await placeOrder(
    db,
    {
      form: shopperCheckout(),
      cart: [
        {
          productId: HEADPHONES.id,
          variantId: null,
          quantity: 1,
          seenPriceCents: HEADPHONES.priceCents,
          seenName: HEADPHONES.name,
        },
      ],
      orderToken: randomUUID(),
      clientAddress: shopperAddress(),
      trackingParameters: {},
      settings: defaultSettings(),
      shipping: {
        quote: {
          kind: 'carrier',
          options: [
            { id: '2', carrier: 'Correios', service: 'SEDEX', priceCents: 2590, businessDays: 2 },
          ],
        },
        chosen: null,
        provider: 'melhorenvio',
      },
    },
    { tracking: false },
  );
  if (!placed.ok) throw new Error(`Order refused: ${JSON.stringify(placed)}`);
  const confirmed = await changeOrderStatusBy(
    db,
    { orderId: placed.orderId, to: 'confirmed', trackingCode: null, by: { actor: 'Pagamento' } },
    { tracking: false },
  );
  if (!confirmed.ok) throw new Error(confirmed.error);
  const order = await getOrder(db, placed.orderId);
  return { orderId: placed.orderId, number: order!.number.slice(1) };
}

describe('admin: shipping labels from Melhor Envio', () => {
  let fake: FakeMelhorEnvio;
  let server: TestServer;
  let browser: Browser;
  let hook: string;
  const paid: PaidOrder[] = [];

  beforeAll(async () => {
    fake = await startFakeMelhorEnvio({ token: TOKEN, webhookSecret: SECRET });
    fake.setBalance(500);
    [server, browser] = await Promise.all([
      startServer({
        env: {
          PAYMENT_PROVIDER: 'sandbox',
          SHIPPING_PROVIDER: 'melhorenvio',
          MELHOR_ENVIO_TOKEN: TOKEN,
          MELHOR_ENVIO_API_URL: fake.url,
          MELHOR_ENVIO_WEBHOOK_SECRET: SECRET,
          CEP_SERVICE_URL: 'http://127.0.0.1:9',
          CHECKOUT_RATE_LIMIT: '1000',
        },
        prepare: withAdmin(async (db) => {
          paid.push(await paidSedexOrder(db), await paidSedexOrder(db));
        }),
        settings: {
          store_name: 'Loja Etiquetas',
          contact_email: 'contato@loja-etiquetas.test',
          contact_phone: '(11) 4000-1234',
          legal_name: 'Loja Etiquetas Ltda.',
          cnpj: '11.222.333/0001-81',
          shipping_origin_cep: '01310100',
          shipping_origin_street: 'Rua Augusta',
          shipping_origin_number: '500',
          shipping_origin_district: 'Consolação',
          shipping_origin_city: 'São Paulo',
          shipping_origin_state: 'SP',
        },
      }),
      launchBrowser(),
    ]);
    hook = `${server.url}/api/shipping/melhorenvio`;
  }, START_BUDGET_MS);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await fake?.close();
  });

  /** The fake's shipment for an order, found by the tag our cart call gives it. */
  const shipmentOf = (number: string) =>
    [...fake.orders.values()].find((each) => each.tags.some((tag) => tag.tag === `#${number}`))!;

  it('buys two labels at once from the list, ships both with their e-mails, and takes deliveries only from signed notifications', async () => {
    const [first, second] = paid as [PaidOrder, PaidOrder];
    const purchases = fake.purchaseCalls();

    // Signed in over HTTP: the form's journey is admin-auth.test.ts's.
    const { page, problems } = await signedInPage(browser, server.url, '/admin/orders');
    expect(await seriousAxeViolations(page)).toEqual([]);
    for (const { number } of [first, second]) {
      await page
        .getByRole('checkbox', { name: `Selecionar pedido #${number} para gerar etiqueta` })
        .check();
    }
    await page.getByRole('button', { name: 'Gerar etiquetas' }).click();
    const results = page.getByTestId('label-results');
    await results.waitFor();
    const said = (await results.textContent()) ?? '';
    expect(said).toContain(`#${first.number}: Etiqueta gerada.`);
    expect(said).toContain(`#${second.number}: Etiqueta gerada.`);
    expect(fake.purchaseCalls()).toBe(purchases + 2);
    for (const { number } of [first, second]) {
      const row = page.getByTestId('order-row').filter({ hasText: `#${number}` });
      await row.getByText('Enviado').waitFor();
      const code = shipmentOf(number).tracking!;
      expect(code).toMatch(/^AA\d{9}BR$/);
      await emailWith(server, `#${number}`, code);
    }
    expect(await seriousAxeViolations(page)).toEqual([]);

    // The order's page: its service, the label to print in a new tab, no button to buy again.
    await page.goto(`${server.url}/admin/orders/${first.orderId}`, { waitUntil: 'networkidle' });
    const shipping = page.getByRole('region', { name: 'Envio' });
    expect(await shipping.getByTestId('order-shipping-method').textContent()).toContain(
      'Correios SEDEX',
    );
    const link = shipping.getByRole('link', { name: /Abrir etiqueta/ });
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('href')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/imprimir\//);
    expect(await shipping.getByRole('button', { name: 'Gerar etiqueta' }).count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);

    // Notifications: GET is not how they come, a forged or missing signature is refused, junk
    // signed is refused, and a valid one only makes the store read Melhor Envio again.
    const shipment = shipmentOf(first.number);
    expect((await fetch(hook)).status).toBe(405);
    const forged = await fake.notifyForged(hook, 'order.delivered', shipment.id);
    expect(forged.status).toBe(401);
    expect(JSON.parse(forged.body)).toMatchObject({ message: 'Assinatura inválida.' });
    const unsigned = await fake.notify(hook, 'order.delivered', shipment.id, { signature: null });
    expect(unsigned.status).toBe(401);
    const junk = await fetch(hook, {
      method: 'POST',
      headers: { 'x-me-signature': signMelhorEnvioWebhook('{"event":1}', SECRET) },
      body: '{"event":1}',
    });
    expect(junk.status).toBe(400);
    // Said delivered while Melhor Envio still says generated: nothing moves.
    expect((await fake.notify(hook, 'order.delivered', shipment.id)).status).toBe(200);
    await page.goto(`${server.url}/admin/orders`, { waitUntil: 'networkidle' });
    expect(
      await page
        .getByTestId('order-row')
        .filter({ hasText: `#${first.number}` })
        .textContent(),
    ).toContain('Enviado');
    fake.markDelivered(shipment.id);
    expect((await fake.notify(hook, 'order.delivered', shipment.id)).status).toBe(200);

    await page.goto(`${server.url}/admin/orders`, { waitUntil: 'networkidle' });
    const delivered = page.getByTestId('order-row').filter({ hasText: `#${first.number}` });
    await delivered.getByText('Entregue').waitFor();
    const stillShipped = page.getByTestId('order-row').filter({ hasText: `#${second.number}` });
    expect(await stillShipped.textContent()).toContain('Enviado');

    // The order's own 'Gerar etiqueta', posted as a form without JavaScript: bought already.
    const admin = await adminVisitor(server.url);
    const again = await admin.post(`/admin/orders/${second.orderId}`, { intent: 'label' });
    expect(again.status).toBe(200);
    expect(again.text).toContain('A etiqueta deste pedido já foi gerada.');
    expect(fake.purchaseCalls()).toBe(purchases + 2);
  }, 120_000);
});
