import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SANDBOX_PAYMENT_PATH } from '~/components/store/order-payment';
import { FORM_MESSAGES } from '~/lib/form';
import { CHECKOUT_MESSAGES } from '~/modules/checkout';

import { decodeBody, send } from '../fuzz/http';
import { sampleProduct } from '../support/sample';
import { startServer, type TestServer } from '../support/server';
import {
  orderNumberIn,
  VALID_CHECKOUT,
  visibleText,
  Visitor,
  type Page,
  type PlacedOrder,
} from '../support/visitor';

// R$ 129,90, 120 in stock.
const MOUSE = sampleProduct('Mouse Sem Fio');

const MISSING_PAYMENT = 'Não foi possível encontrar os dados de pagamento';
const INVALID_PAYMENT = 'Informações de pagamento inválidas';
const NOT_A_FORM = 'Envie os dados pelo formulário da loja.';
const UNREADABLE_FORM = 'Não foi possível ler o formulário. Recarregue a página e tente novamente.';
const CEP_INVALID = 'CEP inválido. Use o formato 00000-000.';
const INVALID_POSTBACK = 'Notificação de pagamento inválida.';
const RATE_LIMITED =
  'Muitas tentativas de compra em pouco tempo. Aguarde um minuto e tente de novo.';

// The owner of the order other browsers try to reach: every one of these must stay hidden.
const OWNER = {
  ...VALID_CHECKOUT,
  customerName: 'Joana Privada Teste',
  customerEmail: 'joana.privada@example.com',
  customerCpf: '111.444.777-35',
  customerPhone: '(21) 99876-5432',
  street: 'Rua Sigilosa',
  number: '4242',
};
const OWNER_SECRETS = [
  OWNER.customerName,
  OWNER.customerEmail,
  '11144477735',
  '111.444.777-35',
  '21998765432',
  OWNER.street,
];

const UUID_NOBODY = '00000000-0000-4000-8000-000000000000';

/** Malformed order ids, each as it goes in a query string. */
const BAD_IDS: [label: string, query: string][] = [
  ['x', 'x'],
  ['SQL', encodeURIComponent("' or 1=1 --")],
  ['unicode', encodeURIComponent('pedido-ção-✓-😀')],
  ['broken percent-encoding', '%FF%FE'],
  ['NUL', '%00'],
  ['a uuid nobody has', UUID_NOBODY],
];

/** Status and visible text; and whatever the answer, never a server error. */
function readable(page: Page) {
  expect(page.status, page.text.slice(0, 300)).toBeLessThan(500);
  return { status: page.status, text: visibleText(page.text) };
}

/** The checkout form's summary alert (the first problem found). */
function checkoutAlert(page: Page): string | undefined {
  const html = /id="checkout-error"[^>]*>([\s\S]*?)<\/p>/.exec(page.text)?.[1];
  return html === undefined ? undefined : visibleText(html);
}

// The server allows 3 checkout submissions per minute per client address. It trusts
// X-Forwarded-For from loopback (TRUST_PROXY's default), so each request here comes from an
// address of its own, and the rate-limit tests choose theirs.
let addresses = 0;
const freshAddress = () => {
  addresses += 1;
  return `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`;
};

describe('checkout routes refuse bad input with a 4xx and pt-BR text', () => {
  let server: TestServer;
  // An order, the browser that placed it, and a stranger with an order of its own.
  let owner: Visitor;
  let placed: PlacedOrder;
  let stranger: Visitor;

  beforeAll(async () => {
    const env = {
      PAYMENT_PROVIDER: 'sandbox',
      // Nothing listens there: the CEP service is down.
      CEP_SERVICE_URL: 'http://127.0.0.1:9',
    };
    server = await startServer({
      env: { ...env, CHECKOUT_RATE_LIMIT: '3' },
      // The sandbox takes boleto; switched off here, checkout must refuse it.
      settings: { enable_boleto: false },
    });
    owner = browser();
    await owner.addToCart(MOUSE.id);
    placed = await owner.checkout(OWNER);
    stranger = browser();
    await stranger.addToCart(MOUSE.id);
    await stranger.checkout();
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** A new browser; by default each of its requests comes from a new address. */
  const browser = (address: string | (() => string) = freshAddress) =>
    new Visitor(server.url, { address });

  /** A browser with a product in its cart, so that the checkout page renders. */
  async function withCart(address?: string): Promise<Visitor> {
    const visitor = browser(address);
    await visitor.addToCart(MOUSE.id);
    return visitor;
  }

  /** A complete, valid checkout form with a fresh idempotency key. */
  const validForm = (): Record<string, string> => ({
    ...VALID_CHECKOUT,
    complement: 'Apto 1',
    idempotencyKey: randomUUID(),
  });

  describe('pages read with no, malformed or unknown ids', () => {
    it('/order-confirmation says the payment data was not found', async () => {
      const visitor = browser();
      for (const query of ['', ...BAD_IDS.map(([, id]) => `?orderId=${id}`)]) {
        const page = readable(await visitor.get(`/order-confirmation${query}`));
        expect(page.status, query).toBe(404);
        expect(page.text, query).toContain(MISSING_PAYMENT);
      }
    });

    it('/payment-callback says the payment information is invalid', async () => {
      const visitor = browser();
      const cases: [query: string, status: number][] = [
        ['', 400],
        ...BAD_IDS.filter(([label]) => label !== 'a uuid nobody has').map(
          ([, id]): [string, number] => [`?orderId=${id}&paymentId=${id}`, 400],
        ),
        [`?orderId=${UUID_NOBODY}`, 404],
        [`?orderId=${UUID_NOBODY}&paymentId=${'p'.repeat(201)}`, 400],
        [`?orderId=${UUID_NOBODY}&paymentId=abc`, 404],
        [`?orderId=${placed.orderId}&paymentId=${placed.paymentId}`, 404],
      ];
      for (const [query, status] of cases) {
        const page = readable(await visitor.get(`/payment-callback${query}`));
        expect(page.status, query).toBe(status);
        expect(page.text, query).toContain(INVALID_PAYMENT);
      }
    });

    it('/thank-you answers 404 for an order it cannot show', async () => {
      const visitor = browser();
      for (const query of ['', ...BAD_IDS.map(([, id]) => `?orderId=${id}&verified=true`)]) {
        const page = readable(await visitor.get(`/thank-you${query}`));
        expect(page.status, query).toBe(404);
        expect(page.text, query).not.toContain(OWNER.customerName);
      }
    });

    it("/thank-you's 404 says 'Pedido não encontrado' in the served HTML", async () => {
      const page = readable(await browser().get('/thank-you?orderId=x'));
      expect(page.text).toContain('Pedido não encontrado');
    });

    it('refuses 10 KB ids and raw UTF-8 before any page', async () => {
      for (const path of ['/order-confirmation', '/thank-you', '/payment-callback']) {
        const long = readable(await browser().get(`${path}?orderId=${'a'.repeat(10_240)}`));
        expect(long.status, path).toBe(414);
        expect(long.text).toContain('Endereço longo demais.');

        // Raw UTF-8 in the request line: Node's parser refuses it before the app (server/main.js
        // answers 400 with no body), never a 5xx or a hang.
        const { port } = new URL(server.url);
        const raw = await send({
          host: '127.0.0.1',
          port: Number(port),
          data: Buffer.concat([
            Buffer.from(`GET ${path}?orderId=`),
            Buffer.from('ção😀', 'utf8'),
            Buffer.from(` HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`),
          ]),
          head: false,
          timeoutMs: 5_000,
        });
        expect(raw.outcome, path).toBe('response');
        expect(raw.status, path).toBe(400);
      }
    });
  });

  describe("another browser's order", () => {
    const tokenOf = (visitor: Visitor) => visitor.cookies.get('order_token')!;
    /** A browser whose only cookie is this order_token value (or none). */
    const browserWith = (token?: string) => {
      const visitor = browser();
      if (token !== undefined) visitor.cookies.set('order_token', token);
      return visitor;
    };
    const tampered = () => {
      const token = tokenOf(owner);
      const at = 20;
      return `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
    };

    it('is shown to its own browser', async () => {
      const page = readable(await owner.get(placed.location));
      expect(page.status).toBe(200);
      expect(orderNumberIn(page.text)).toMatch(/^\d+$/);
      const thanks = await owner.get(`/thank-you?orderId=${placed.orderId}`);
      expect(thanks.status).toBe(200);
      expect(thanks.text).toContain(OWNER.customerName);
    });

    it('is not found with no, another, a tampered or a forged order_token', async () => {
      const number = orderNumberIn((await owner.get(placed.location)).text);
      const forged = Buffer.from(JSON.stringify('A'.repeat(43))).toString('base64');
      const browsers: [string, Visitor][] = [
        ['no cookie', browserWith()],
        ["another browser's token", browserWith(tokenOf(stranger))],
        ['a tampered token', browserWith(tampered())],
        ['a forged token', browserWith(forged)],
        ['junk', browserWith('%%%;;')],
      ];
      const ids = new URLSearchParams({ orderId: placed.orderId, paymentId: placed.paymentId! });
      for (const [label, visitor] of browsers) {
        const pages: [string, number, string][] = [
          [`/order-confirmation?${ids}`, 404, MISSING_PAYMENT],
          [`/payment-callback?${ids}`, 404, INVALID_PAYMENT],
          [`/thank-you?${ids}&verified=true`, 404, ''],
        ];
        for (const [path, status, text] of pages) {
          const page = await visitor.get(path);
          expect(readable(page).status, `${label} ${path}`).toBe(status);
          expect(visibleText(page.text), `${label} ${path}`).toContain(text);
          for (const secret of OWNER_SECRETS)
            expect(page.text, `${label} ${path}`).not.toContain(secret);
        }
        // Nor can it pay, approve or cancel the order (the sandbox buttons).
        for (const intent of ['pay', 'approve', 'reject', 'expire']) {
          const at =
            intent === 'pay'
              ? `/order-confirmation?orderId=${placed.orderId}`
              : SANDBOX_PAYMENT_PATH;
          const page = await visitor.post(at, {
            intent,
            orderId: placed.orderId,
          });
          expect(readable(page).status, `${label} ${intent}`).toBe(404);
          expect(visibleText(page.text)).toContain(MISSING_PAYMENT);
          for (const secret of OWNER_SECRETS) expect(page.text).not.toContain(secret);
        }
        const history = await visitor.get('/historico');
        expect(history.status).toBe(200);
        expect(history.text).not.toContain(`Pedido #${number}`);
        for (const secret of OWNER_SECRETS) expect(history.text).not.toContain(secret);
      }
      // The order is still pending: none of that reached it.
      const history = await owner.get('/historico');
      expect(visibleText(history.text)).toContain('Pendente');
    });
  });

  describe('POST /checkout', () => {
    it('refuses bodies that are not the store form', async () => {
      const visitor = await withCart();
      const multipartJunk = {
        body: '--xyz\r\nbroken',
        headers: { 'Content-Type': 'multipart/form-data; boundary=xyz' },
      };
      const cases: [label: string, init: RequestInit, message: string][] = [
        [
          'JSON',
          {
            body: JSON.stringify(validForm()),
            headers: { 'Content-Type': 'application/json' },
          },
          NOT_A_FORM,
        ],
        [
          'text/plain',
          { body: 'nome=Maria', headers: { 'Content-Type': 'text/plain' } },
          NOT_A_FORM,
        ],
        ['no body', {}, NOT_A_FORM],
        [
          'empty form',
          { body: '', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } },
          CHECKOUT_MESSAGES.customerName,
        ],
        [
          'garbage urlencoded',
          {
            body: '%%%&&==&a=%ZZ&%C3%28=%E2%82&customerName[]=x',
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          },
          CHECKOUT_MESSAGES.customerName,
        ],
        ['broken multipart', multipartJunk, UNREADABLE_FORM],
        [
          'a NUL in a field',
          {
            body: new URLSearchParams({ ...validForm(), city: 'São\u0000Paulo' }),
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          },
          FORM_MESSAGES.invalid,
        ],
      ];
      for (const [label, init, message] of cases) {
        const page = await visitor.request('/checkout', { method: 'POST', ...init });
        expect(readable(page).status, label).toBe(400);
        expect(checkoutAlert(page), label).toBe(message);
      }
      // JavaScript's data request gets the same answer.
      const data = await visitor.request('/checkout.data', {
        method: 'POST',
        body: JSON.stringify(validForm()),
        headers: { 'Content-Type': 'application/json' },
      });
      expect(data.status).toBe(400);
      expect(data.text).toContain(NOT_A_FORM);
    });

    it("answers each field missing, oversized, repeated or malformed with the schema's message", async () => {
      const visitor = await withCart();
      const without = (field: string) => {
        const form = validForm();
        delete form[field];
        return form;
      };
      const withValue = (field: string, value: string) => ({ ...validForm(), [field]: value });
      const M = CHECKOUT_MESSAGES;
      const tooLong = (max: number) => `Use no máximo ${max} caracteres.`;

      const cases: [label: string, form: Record<string, string>, message: string][] = [
        // Missing.
        ['no name', without('customerName'), M.customerName],
        ['no e-mail', without('customerEmail'), M.customerEmail],
        ['no CPF', without('customerCpf'), M.customerCpf],
        ['no phone', without('customerPhone'), M.customerPhone],
        ['no CEP', without('zipCode'), M.zipCode],
        ['no street', without('street'), M.street],
        ['no number', without('number'), M.number],
        ['no neighbourhood', without('neighborhood'), M.neighborhood],
        ['no city', without('city'), M.city],
        ['no state', without('state'), M.state],
        ['no idempotency key', without('idempotencyKey'), M.idempotencyKey],
        ['blank name', withValue('customerName', '   '), M.customerName],
        // Oversized.
        ['long name', withValue('customerName', 'M'.repeat(121)), tooLong(120)],
        [
          'long e-mail',
          withValue('customerEmail', `${'m'.repeat(250)}@example.com`),
          M.customerEmailInvalid,
        ],
        ['long CPF', withValue('customerCpf', '5'.repeat(21)), M.customerCpfInvalid],
        ['long phone', withValue('customerPhone', '1'.repeat(21)), M.customerPhoneInvalid],
        ['long CEP', withValue('zipCode', '0'.repeat(5_000)), M.zipCodeInvalid],
        ['long street', withValue('street', 'R'.repeat(161)), tooLong(160)],
        ['long number', withValue('number', '1'.repeat(21)), tooLong(20)],
        ['long complement', withValue('complement', 'C'.repeat(81)), tooLong(80)],
        ['long neighbourhood', withValue('neighborhood', 'B'.repeat(81)), tooLong(80)],
        ['long city', withValue('city', 'S'.repeat(81)), tooLong(80)],
        ['long state', withValue('state', 'SP'.repeat(500)), M.state],
        ['long payment method', withValue('paymentMethod', 'pix'.repeat(500)), M.paymentMethod],
        ['long idempotency key', withValue('idempotencyKey', 'a'.repeat(5_000)), M.idempotencyKey],
        // Malformed.
        ['repeated-digit CPF', withValue('customerCpf', '111.111.111-11'), M.customerCpfInvalid],
        ['CPF check digits', withValue('customerCpf', '529.982.247-26'), M.customerCpfInvalid],
        ['CPF with letters', withValue('customerCpf', 'abc.def.ghi-jk'), M.customerCpfInvalid],
        ['short phone', withValue('customerPhone', '(11) 1234'), M.customerPhoneInvalid],
        [
          'e-mail without @',
          withValue('customerEmail', 'maria.example.com'),
          M.customerEmailInvalid,
        ],
        ['CEP with letters', withValue('zipCode', 'abcde-fgh'), M.zipCodeInvalid],
        ['unknown state', withValue('state', 'XX'), M.state],
        ['boleto switched off', withValue('paymentMethod', 'boleto'), M.paymentMethod],
        ['key not a uuid', withValue('idempotencyKey', "' or 1=1 --"), M.idempotencyKey],
      ];
      for (const [label, form, message] of cases) {
        const page = await visitor.post('/checkout', form);
        expect(readable(page).status, label).toBe(400);
        expect(checkoutAlert(page), label).toBe(message);
      }

      // Each field sent twice, even with the same value.
      for (const field of Object.keys(validForm())) {
        const form = validForm();
        const pairs = [...Object.entries(form), [field, form[field]!] as [string, string]];
        const page = await visitor.post('/checkout', pairs);
        expect(readable(page).status, field).toBe(400);
        expect(checkoutAlert(page), field).toBe(FORM_MESSAGES.repeated);
      }

      // A file where text belongs.
      const multipart = new FormData();
      for (const [key, value] of Object.entries(validForm())) {
        if (key !== 'customerName') multipart.append(key, value);
      }
      multipart.append('customerName', new Blob(['Maria']), 'nome.txt');
      const file = await visitor.request('/checkout', { method: 'POST', body: multipart });
      expect(readable(file).status).toBe(400);
      expect(checkoutAlert(file)).toBe(FORM_MESSAGES.invalid);

      // Over MAX_BODY_BYTES (256 KiB): refused before it is read.
      const huge = await visitor.post('/checkout', withValue('customerName', 'M'.repeat(300_000)));
      expect(readable(huge).status).toBe(413);
      expect(visibleText(huge.text)).toContain('O envio é grande demais.');

      // None of that placed an order, and the cart is still there.
      expect(visitor.cookies.has('order_token')).toBe(false);
      expect(visibleText((await visitor.get('/historico')).text)).toContain(
        'Nenhum pedido encontrado.',
      );
      expect((await visitor.get('/checkout')).status).toBe(200);
    });

    it('places nothing without a cart', async () => {
      const visitor = browser();
      expect((await visitor.get('/checkout')).location).toBe('/cart');
      // The document request is sent back to the (empty) cart ...
      const page = await visitor.post('/checkout', validForm());
      expect(readable(page).status).toBe(302);
      expect(page.location).toBe('/cart');
      expect(visibleText((await visitor.get('/cart')).text)).toContain('Seu carrinho está vazio');
      // ... and JavaScript's data request hears why.
      const data = await visitor.request('/checkout.data', {
        method: 'POST',
        body: new URLSearchParams(validForm()),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
      expect(data.status).toBe(409);
      expect(data.text).toContain('Seu carrinho está vazio.');
      expect(visitor.cookies.has('order_token')).toBe(false);
    });
  });

  describe('POST /order-confirmation', () => {
    it('refuses bad intents and ids', async () => {
      const at = `/order-confirmation?orderId=${placed.orderId}`;
      const cases: [label: string, fields: Record<string, string>, status: number, text: string][] =
        [
          ['no intent', { orderId: placed.orderId }, 400, 'Ação inválida.'],
          ['unknown intent', { intent: 'refund', orderId: placed.orderId }, 400, 'Ação inválida.'],
          ['no order id', { intent: 'pay' }, 400, MISSING_PAYMENT],
          ['order id x', { intent: 'pay', orderId: 'x' }, 404, MISSING_PAYMENT],
          ['order id too long', { intent: 'pay', orderId: 'a'.repeat(65) }, 400, MISSING_PAYMENT],
          ['SQL', { intent: 'pay', orderId: "' or 1=1 --" }, 404, MISSING_PAYMENT],
          ['unknown order', { intent: 'pay', orderId: UUID_NOBODY }, 404, MISSING_PAYMENT],
          // The sandbox's buttons have their own address.
          ['sandbox intent', { intent: 'approve', orderId: placed.orderId }, 400, 'Ação inválida.'],
        ];
      for (const [label, fields, status, text] of cases) {
        const page = await owner.post(at, fields);
        expect(readable(page).status, label).toBe(status);
        expect(visibleText(page.text), label).toContain(text);
      }
      const repeated = await owner.post(at, [
        ['intent', 'pay'],
        ['intent', 'approve'],
        ['orderId', placed.orderId],
      ]);
      expect(readable(repeated).status).toBe(400);
      expect(visibleText(repeated.text)).toContain(FORM_MESSAGES.repeated);
      const json = await owner.request(at, {
        method: 'POST',
        body: JSON.stringify({ intent: 'approve', orderId: placed.orderId }),
        headers: { 'Content-Type': 'application/json' },
      });
      expect(readable(json).status).toBe(400);
      expect(visibleText(json.text)).toContain(NOT_A_FORM);
      // None of it touched the order.
      expect(visibleText((await owner.get('/historico')).text)).toContain('Pendente');
    });
  });

  describe(`POST ${SANDBOX_PAYMENT_PATH}`, () => {
    it('refuses bad intents and ids', async () => {
      const cases: [label: string, fields: Record<string, string>, status: number, text: string][] =
        [
          ['no intent', { orderId: placed.orderId }, 400, 'Ação inválida.'],
          ['pay', { intent: 'pay', orderId: placed.orderId }, 400, 'Ação inválida.'],
          ['no order id', { intent: 'approve' }, 400, MISSING_PAYMENT],
          ['order id x', { intent: 'approve', orderId: 'x' }, 404, MISSING_PAYMENT],
          ['too long', { intent: 'reject', orderId: 'a'.repeat(65) }, 400, MISSING_PAYMENT],
          ['unknown order', { intent: 'approve', orderId: UUID_NOBODY }, 404, MISSING_PAYMENT],
        ];
      for (const [label, fields, status, text] of cases) {
        const answer = await owner.post(SANDBOX_PAYMENT_PATH, fields);
        expect(answer.status, label).toBe(status);
        expect(answer.text, label).toContain(text);
      }
      const json = await owner.request(SANDBOX_PAYMENT_PATH, {
        method: 'POST',
        body: JSON.stringify({ intent: 'approve', orderId: placed.orderId }),
        headers: { 'Content-Type': 'application/json' },
      });
      expect(json.status).toBe(400);
      expect(json.text).toContain(NOT_A_FORM);
      const visit = await owner.get(SANDBOX_PAYMENT_PATH);
      expect(visit.status).toBe(405);
      // None of it touched the order.
      expect(visibleText((await owner.get('/historico')).text)).toContain('Pendente');
    });
  });

  describe('wrong methods', () => {
    it('answers PUT and DELETE on pages without an action with 405', async () => {
      const visitor = browser();
      for (const method of ['PUT', 'DELETE']) {
        for (const path of [
          `/thank-you?orderId=${placed.orderId}`,
          `/payment-callback?orderId=${placed.orderId}&paymentId=${placed.paymentId}`,
          '/historico',
        ]) {
          const page = await visitor.request(path, { method });
          expect(readable(page).status, `${method} ${path}`).toBe(405);
          expect(page.text).toContain('lang="pt-BR"');
        }
      }
      // Methods the store never uses stop at the guard.
      const { port } = new URL(server.url);
      for (const method of ['PROPFIND', 'PURGE']) {
        const raw = await send({
          host: '127.0.0.1',
          port: Number(port),
          data: Buffer.from(
            `${method} /checkout HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`,
          ),
          head: false,
          timeoutMs: 5_000,
        });
        expect(raw.status, method).toBe(405);
        expect(decodeBody(raw)?.toString('utf8')).toContain('Método não permitido.');
      }
      // The postback takes only POST.
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const page = await visitor.request('/api/payments/postback', { method });
        expect(page.status, method).toBe(405);
        expect(page.text).toContain('Envie a notificação com POST.');
      }
    });

    it('answers PUT and DELETE on /checkout and /order-confirmation with 405', async () => {
      const visitor = await withCart();
      const key = await visitor.checkoutKey();
      const put = await visitor.request('/checkout', {
        method: 'PUT',
        body: new URLSearchParams({ ...VALID_CHECKOUT, idempotencyKey: key }),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
      expect(put.status).toBe(405);
      const del = await owner.request(`/order-confirmation?orderId=${placed.orderId}`, {
        method: 'DELETE',
        body: new URLSearchParams({ intent: 'pay', orderId: placed.orderId }),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
      expect(del.status).toBe(405);
    });

    it('answers PUT on /api/cep with a pt-BR message', async () => {
      const page = await browser().request('/api/cep/01310100', { method: 'PUT' });
      expect(page.status).toBe(405);
      expect(page.text).not.toContain('Unexpected Server Error');
    });
  });

  describe('/api/cep', () => {
    it("answers bad CEPs with 400 'CEP inválido…' and a dead service with a 200 to fill by hand", async () => {
      const visitor = browser();
      for (const cep of [
        'abc',
        '1234',
        '123456789',
        '01310-10',
        '%20',
        encodeURIComponent("' or 1=1 --"),
        encodeURIComponent('✓😀'),
        '01310100%00',
        '1'.repeat(3_000),
      ]) {
        const page = await visitor.get(`/api/cep/${cep}`, { Accept: 'application/json' });
        expect(page.status, cep).toBe(400);
        expect(JSON.parse(page.text), cep).toEqual({ ok: false, message: CEP_INVALID });
      }
      for (const cep of ['01310100', '01310-100']) {
        const page = await visitor.get(`/api/cep/${cep}`, { Accept: 'application/json' });
        expect(page.status, cep).toBe(200);
        expect(page.headers.get('cache-control')).toBe('no-store');
        expect(JSON.parse(page.text)).toEqual({
          ok: false,
          message: 'Não foi possível buscar o CEP agora. Preencha o endereço manualmente.',
        });
      }
    });
  });

  describe('/api/payments/postback', () => {
    it('answers no body, bad JSON and unknown ids with a 4xx', async () => {
      const post = (body: BodyInit | undefined, type?: string) =>
        fetch(`${server.url}/api/payments/postback`, {
          method: 'POST',
          body,
          headers: type ? { 'Content-Type': type } : {},
        }).then(async (response) => ({ status: response.status, body: await response.json() }));
      const json = 'application/json';
      const cases: [
        label: string,
        body: BodyInit | undefined,
        type: string | undefined,
        status: number,
        message: string,
      ][] = [
        ['no body', undefined, undefined, 400, INVALID_POSTBACK],
        ['empty JSON', '', json, 400, INVALID_POSTBACK],
        ['bad JSON', '{"id":', json, 400, INVALID_POSTBACK],
        ['array', '[]', json, 400, INVALID_POSTBACK],
        ['null', 'null', json, 400, INVALID_POSTBACK],
        ['no id', '{"status":"APPROVED"}', json, 400, INVALID_POSTBACK],
        ['object id', '{"id":{"$ne":null}}', json, 400, INVALID_POSTBACK],
        ['blank id', '{"id":"   "}', json, 400, INVALID_POSTBACK],
        ['long id', JSON.stringify({ id: 'p'.repeat(201) }), json, 400, INVALID_POSTBACK],
        ['control characters', JSON.stringify({ id: 'abc\u0000\n' }), json, 400, INVALID_POSTBACK],
        ['text', 'id=1', 'text/plain', 400, INVALID_POSTBACK],
        [
          'unknown id',
          JSON.stringify({ id: 'tx_nobody', status: 'APPROVED' }),
          json,
          404,
          'Pagamento não encontrado.',
        ],
        ['unknown number id', '{"id":12345}', json, 404, 'Pagamento não encontrado.'],
        [
          'unknown id as a form',
          'transactionId=tx_nobody',
          'application/x-www-form-urlencoded',
          404,
          'Pagamento não encontrado.',
        ],
      ];
      for (const [label, body, type, status, message] of cases) {
        const answer = await post(body, type);
        expect(answer, label).toEqual({ status, body: { ok: false, message } });
      }
    });
  });

  it('limits checkout submissions per address with a 429 in pt-BR', async () => {
    const visitor = await withCart('203.0.113.7');
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const page = await visitor.post('/checkout', { ...validForm(), customerCpf: '123' });
      expect(readable(page).status, `attempt ${attempt}`).toBe(400);
    }
    // The fourth, even a valid one, is refused, and so is anyone else's from the same address.
    const refused = await visitor.post('/checkout', validForm());
    expect(refused.status).toBe(429);
    expect(checkoutAlert(refused)).toBe(RATE_LIMITED);
    const other = await withCart('203.0.113.7');
    const data = await other.request('/checkout.data', {
      method: 'POST',
      body: new URLSearchParams(validForm()),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(data.status).toBe(429);
    expect(data.text).toContain(RATE_LIMITED);
    expect(visitor.cookies.has('order_token')).toBe(false);
    expect(other.cookies.has('order_token')).toBe(false);
    // Another address is not held back.
    const elsewhere = await withCart('203.0.113.8');
    const placedElsewhere = await elsewhere.checkout();
    expect(placedElsewhere.paymentId).toBeTruthy();
  });

  it("says when to come back ('Retry-After') on a 429", async () => {
    const visitor = await withCart('203.0.113.9');
    let refused: Page | undefined;
    for (let attempt = 0; attempt < 5 && refused?.status !== 429; attempt += 1) {
      refused = await visitor.post('/checkout', { ...validForm(), customerCpf: '123' });
    }
    expect(refused!.status).toBe(429);
    // What is left of the minute the count started in.
    const retryAfter = Number(refused!.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it('logged no server error along the way', () => {
    expect(server.output()).not.toMatch(/"level":50/);
    expect(server.output()).not.toMatch(/"status":5\d\d/);
  });
});
