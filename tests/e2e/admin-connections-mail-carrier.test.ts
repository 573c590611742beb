import { randomBytes } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { MAIL_TEST_MESSAGES } from '~/modules/notifications/index.server';
import { MELHOR_ENVIO_ACCOUNT_MESSAGES } from '~/modules/shipping/index.server';

import { ADMIN, adminVisitor, withAdmin } from '../support/admin';
import { startFakeMelhorEnvio, type FakeMelhorEnvio } from '../support/fake-melhorenvio';
import { startFakeSmtpServer, type FakeSmtpServer } from '../support/fake-smtp';
import { sampleProduct, sampleProductPath } from '../support/sample';
import { START_BUDGET_MS, startServer, type TestServer } from '../support/server';
import { until } from '../support/until';
import { VALID_CHECKOUT, Visitor, visibleText } from '../support/visitor';

// Issue 35: e-mail sending and Melhor Envio typed at /admin/payments, with nothing about them in
// the environment, are tested when saved and then used by the running server: the order e-mails
// go through the SMTP server typed there, and shipping is quoted with the token typed there.
const SMTP_PASSWORD = `senha-${randomBytes(8).toString('hex')}`;
const ME_TOKEN = `me-${randomBytes(12).toString('hex')}`;
const HEADPHONES = sampleProduct('Fone de Ouvido');
const HEADPHONES_SLUG = sampleProductPath('Fone de Ouvido').replace('/product/', '');

const smtpUrl = (port: number) => `smtp://loja:${SMTP_PASSWORD}@127.0.0.1:${port}`;

describe('e-mail and carrier shipping connected in the admin', () => {
  let smtp: FakeSmtpServer;
  let refusing: FakeSmtpServer;
  let melhorEnvio: FakeMelhorEnvio;
  let server: TestServer;
  let admin: Visitor;

  beforeAll(async () => {
    [smtp, refusing, melhorEnvio] = await Promise.all([
      startFakeSmtpServer(),
      startFakeSmtpServer({ refuseAuth: true }),
      startFakeMelhorEnvio({ token: ME_TOKEN }),
    ]);
    server = await startServer({
      prepare: withAdmin(),
      settings: { shipping_origin_cep: '01310100', contact_email: 'contato@loja-conexoes.test' },
      env: {
        PAYMENT_PROVIDER: 'sandbox',
        SMTP_URL: '',
        SMTP_FROM: '',
        SHIPPING_PROVIDER: '',
        MELHOR_ENVIO_TOKEN: '',
        MELHOR_ENVIO_API_URL: melhorEnvio.url,
      },
    });
    admin = await adminVisitor(server.url);
  }, START_BUDGET_MS);
  afterAll(async () => {
    await server?.stop();
    await Promise.all([smtp?.close(), refusing?.close(), melhorEnvio?.close()]);
  });

  it('tests the e-mail sending, saves it only once it delivers, and sends the order e-mails through it', async () => {
    // Nothing to test yet: the messages would only become files on the server.
    const none = await admin.post('/admin/payments', { intent: 'test-email' });
    expect(none.status).toBe(422);
    expect(visibleText(none.text)).toContain(MAIL_TEST_MESSAGES.noServer);

    const refused = await admin.post('/admin/payments', {
      intent: 'save',
      smtp_url: smtpUrl(refusing.port),
      smtp_from: 'vendas@loja-conexoes.test',
    });
    expect(refused.status).toBe(422);
    expect(visibleText(refused.text)).toContain(MAIL_TEST_MESSAGES.login);
    expect(refused.text).not.toContain(SMTP_PASSWORD);

    const saved = await admin.post('/admin/payments', {
      intent: 'save',
      smtp_url: smtpUrl(smtp.port),
      smtp_from: 'vendas@loja-conexoes.test',
    });
    expect(saved.status).toBe(303);
    expect(smtp.mails.map((mail) => mail.to)).toEqual([[ADMIN.email]]);

    const tested = await admin.post('/admin/payments', { intent: 'test-email' });
    expect(tested.status).toBe(200);
    expect(visibleText(tested.text)).toContain(MAIL_TEST_MESSAGES.sent(ADMIN.email));
    expect(smtp.mails).toHaveLength(2);
    expect(smtp.mails[1]).toMatchObject({
      auth: `\0loja\0${SMTP_PASSWORD}`,
      from: 'vendas@loja-conexoes.test',
      to: [ADMIN.email],
    });
    expect(smtp.mails[1]!.subject).toMatch(/^E-mail de teste da loja /);

    const shopper = new Visitor(server.url);
    await shopper.addToCart(HEADPHONES.id);
    await shopper.checkout({
      ...VALID_CHECKOUT,
      customerCpf: shopper.cpf,
      customerEmail: 'ana.conexoes@example.com',
    });
    const receipt = await until(
      async () => smtp.mails.find((mail) => mail.to.includes('ana.conexoes@example.com')),
      "the order's e-mail through the SMTP server typed in the admin",
      30_000,
    );
    expect(receipt.subject).toMatch(/^Recebemos seu pedido /);
    expect(receipt.from).toBe('vendas@loja-conexoes.test');

    const page = await admin.get('/admin/payments');
    expect(page.text).not.toContain(SMTP_PASSWORD);
    expect(server.output()).not.toContain(SMTP_PASSWORD);
  });

  it('checks a Melhor Envio token when saved, and then quotes shipping with it', async () => {
    const estimate = async () => {
      const answer = await new Visitor(server.url).get(
        `/frete?${new URLSearchParams({ cep: '69005-040', produto: HEADPHONES_SLUG })}`,
      );
      expect(answer.status).toBe(200);
      return JSON.parse(answer.text) as { shipping: { kind: string } };
    };
    expect((await estimate()).shipping.kind).toBe('rule');

    const refused = await admin.post('/admin/payments', {
      intent: 'save',
      melhor_envio_token: 'me-token-revogado',
    });
    expect(refused.status).toBe(422);
    expect(visibleText(refused.text)).toContain(MELHOR_ENVIO_ACCOUNT_MESSAGES.refused);
    expect((await estimate()).shipping.kind).toBe('rule');

    const saved = await admin.post('/admin/payments', {
      intent: 'save',
      melhor_envio_token: ME_TOKEN,
    });
    expect(saved.status).toBe(303);
    expect(melhorEnvio.requests.map((request) => request.path)).toContain('/api/v2/me/balance');
    expect((await estimate()).shipping.kind).toBe('carrier');
    expect(melhorEnvio.calculateCalls()).toBeGreaterThan(0);
    expect(server.output()).not.toContain(ME_TOKEN);
  });
});
