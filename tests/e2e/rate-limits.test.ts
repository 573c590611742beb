import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SANDBOX_PAYMENT_PATH } from '~/components/store/order-payment';

import { ADMIN, adminVisitor, withAdmin } from '../support/admin';
import { sampleProduct } from '../support/sample';
import { startServer, type TestServer } from '../support/server';
import { visibleText, Visitor, type Page } from '../support/visitor';

const MOUSE = sampleProduct('Mouse Sem Fio');
// Sold out in the sample store.
const SMARTWATCH = sampleProduct('Smartwatch Fitness');

/** Retry-After in seconds, checked to be within (0, most]. */
function retryAfter(page: Page, most: number): number {
  const seconds = Number(page.headers.get('retry-after'));
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(most);
  return seconds;
}

// Each request says its client address in X-Forwarded-For (trusted from loopback by default).
describe('the rate limits of the other actions', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({
      env: { PAYMENT_PROVIDER: 'sandbox', CEP_SERVICE_URL: 'http://127.0.0.1:9' },
      prepare: withAdmin(),
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("allows 5 'Gerar novo PIX' a minute per address, then a pt-BR 429", async () => {
    const shopper = new Visitor(server.url, { address: '203.0.113.30' });
    await shopper.addToCart(MOUSE.id);
    const { orderId } = await shopper.checkout();
    const pay = () =>
      shopper.post(`/order-confirmation?orderId=${orderId}`, { intent: 'pay', orderId });
    for (let i = 0; i < 5; i++) expect((await pay()).status).toBe(303);
    const refused = await pay();
    expect(refused.status).toBe(429);
    const seconds = retryAfter(refused, 60);
    expect(visibleText(refused.text)).toMatch(
      /Muitos pedidos de pagamento em pouco tempo\. Aguarde (\d+ segundos?|1 minuto) e tente de novo\./,
    );
    expect(seconds).toBeGreaterThan(0);
    // The sandbox's test buttons create no payment and are not counted.
    const approve = await shopper.post(SANDBOX_PAYMENT_PATH, {
      intent: 'approve',
      orderId,
    });
    expect(approve.status).toBe(303);
  });

  it("allows 10 'Avise-me' a minute per address, then a pt-BR 429", async () => {
    const shopper = new Visitor(server.url, { address: '203.0.113.31' });
    const post = (i: number) =>
      shopper.post(
        '/avise-me',
        { productId: SMARTWATCH.id, email: `pessoa${i}@example.com` },
        { Accept: 'application/json' },
      );
    for (let i = 0; i < 10; i++) expect((await post(i)).status).toBe(200);
    const refused = await post(10);
    expect(refused.status).toBe(429);
    retryAfter(refused, 60);
    expect(JSON.parse(refused.text)).toEqual({
      ok: false,
      toast: {
        id: expect.any(String),
        kind: 'error',
        message: 'Muitos pedidos de aviso em pouco tempo. Aguarde um minuto e tente de novo.',
      },
      fieldErrors: {},
      values: {},
    });
  });

  it('counts wrong current passwords on the password change as sign-in failures', async () => {
    const admin = await adminVisitor(server.url);
    const usual = admin.address;
    admin.address = '203.0.113.32';
    const change = (currentPassword: string) =>
      admin.post('/admin/users', {
        intent: 'change-password',
        currentPassword,
        newPassword: 'senha-nova-456',
        confirmPassword: 'senha-nova-456',
      });
    for (let i = 0; i < 5; i++) {
      const wrong = await change(`chute-${i}`);
      expect(wrong.status).toBe(400);
      expect(visibleText(wrong.text)).toContain('A senha atual está incorreta.');
    }
    const refused = await change(ADMIN.password);
    expect(refused.status).toBe(429);
    retryAfter(refused, 900);
    expect(visibleText(refused.text)).toContain(
      'Erro ao alterar a senha: Muitas tentativas de acesso. Aguarde 15 minutos e tente novamente.',
    );
    // From the admin's usual address, nothing is held back.
    admin.address = usual;
    const changed = await change(ADMIN.password);
    expect(changed.status).not.toBe(429);
    expect(changed.status).toBeLessThan(400);
  });

  it('logged no server error along the way', () => {
    expect(server.output()).not.toMatch(/"level":50/);
    expect(server.output()).not.toMatch(/"status":5\d\d/);
  });
});
