import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { abandonedCheckouts, recoveryOptOuts } from '~/db/schema';

import { signedInPage, withAdmin } from '../support/admin';
import { waitForHydration } from '../support/browser';
import { useStoreAndBrowser } from '../support/fixtures';
import { sampleProduct } from '../support/sample';
import type { TestServer } from '../support/server';
import { until } from '../support/until';

// R$ 299,90, in stock.
const HEADPHONES = sampleProduct('Fone de Ouvido');
const SUBJECT = 'Subject: =?UTF-8?Q?Seu_carrinho_est=C3=A1_esperando';

/** Every .eml the server wrote, soft line breaks and '=3D' of quoted-printable undone. */
async function emails(server: TestServer): Promise<string[]> {
  const folder = join(server.dataDir, 'mail');
  const names = await readdir(folder).catch(() => [] as string[]);
  const texts = await Promise.all(names.map((name) => readFile(join(folder, name), 'utf8')));
  return texts.map((text) => text.replace(/=\r?\n/g, '').replaceAll('=3D', '='));
}

const recoveryMailsTo = async (server: TestServer, email: string) =>
  (await emails(server)).filter((text) => text.includes(`To: ${email}`) && text.includes(SUBJECT));

/** Checkouts left before the server started, typed two minutes ago: due with the 1-minute delay. */
function leftEarlier(email: string) {
  const typedAt = new Date(Date.now() - 2 * 60_000);
  return {
    email,
    name: 'Lia Souza',
    phone: '11987654321',
    lines: [{ productId: HEADPHONES.id, variantId: null, quantity: 2, name: HEADPHONES.name }],
    valueCents: 59980,
    typedAt,
    expiresAt: new Date(typedAt.getTime() + 30 * 24 * 60 * 60_000),
  };
}

describe('abandoned checkouts (delay at 1 minute)', () => {
  const store = useStoreAndBrowser({
    settings: { abandoned_checkout_delay_minutes: 1 },
    prepare: withAdmin(async (db) => {
      await db
        .insert(abandonedCheckouts)
        .values([
          leftEarlier('lia@example.com'),
          leftEarlier('nao-quer@example.com'),
          { ...leftEarlier('comprou@example.com'), status: 'converted' },
        ]);
      await db
        .insert(recoveryOptOuts)
        .values({ email: 'nao-quer@example.com', optedOutAt: new Date() });
    }),
  });

  it('saves the e-mail typed at checkout, and staff see it with the cart', async () => {
    const { server, browser } = store;
    const context = await browser.newContext({
      locale: 'pt-BR',
      viewport: { width: 360, height: 800 },
    });
    const page = await context.newPage();
    // The form's helpers arrive late, as on a slow phone: the e-mail is left before they do, and
    // is saved all the same once they are in.
    await page.route(/\/assets\/checkout-assist-[\w-]+\.js$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue();
    });
    await page.goto(`${server.url}/product/${HEADPHONES.id}`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Comprar agora' }).click();
    await page.waitForURL(`${server.url}/checkout`);
    await waitForHydration(page);
    await page
      .getByText('podemos enviar um e-mail com um link para retomar este carrinho')
      .waitFor();
    await page.getByLabel('Não quero receber e-mails sobre carrinhos não finalizados').waitFor();
    await page.getByLabel('Nome completo').fill('Rui Alves');
    const saved = page.waitForResponse((response) => response.url().endsWith('/checkout/contato'));
    await page.getByLabel('E-mail', { exact: true }).fill('rui@example.com');
    await page.getByLabel('Nome completo').focus();
    expect((await saved).status()).toBe(200);
    await context.close();

    // Signed in over HTTP: the form's journey is admin-auth.test.ts's.
    const { page: admin } = await signedInPage(browser, server.url, '/admin/abandoned');
    const row = admin.getByTestId('abandoned-row').filter({ hasText: 'rui@example.com' });
    await row.waitFor();
    expect(await row.innerText()).toContain('1 × Fone de Ouvido');
    expect(await row.innerText()).toContain('E-mail não enviado');
    // The one left earlier went (the sweep at start, then the outbox): the list says when.
    const lia = admin.getByTestId('abandoned-row').filter({ hasText: 'lia@example.com' });
    await until(async () => {
      await admin.goto(`${server.url}/admin/abandoned`, { waitUntil: 'networkidle' });
      return /E-mail enviado em/.test(await lia.innerText()) ? true : undefined;
    }, "the recovery e-mail in the admin's list");
    await waitForHydration(admin);
    await lia.getByRole('button', { name: 'Copiar link' }).click();
    const whatsapp = lia.getByRole('link', { name: 'Enviar pelo WhatsApp' });
    await whatsapp.waitFor();
    expect(await whatsapp.getAttribute('href')).toMatch(/^https:\/\/wa\.me\/5511987654321\?text=/);
    await admin.context().close();
    // A shopper's checkout and a member of staff's sign-in and list: 17 s alone, twice that with
    // the browser run's other files beside it.
  }, 60_000);

  it('e-mails once; the link restores the cart on a fresh browser; one click unsubscribes', async () => {
    const { server, browser } = store;
    const [mail] = await until(async () => {
      const found = await recoveryMailsTo(server, 'lia@example.com');
      return found.length > 0 ? found : undefined;
    }, 'the recovery e-mail');
    expect(mail).toMatch(
      /List-Unsubscribe:\s+<http:\/\/[^>]+\/carrinho\/descadastrar\?chave=[\w-]+>/,
    );
    expect(mail).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    // Neither the shopper who opted out nor the one who ordered got one; nor a second one.
    expect(await recoveryMailsTo(server, 'nao-quer@example.com')).toEqual([]);
    expect(await recoveryMailsTo(server, 'comprou@example.com')).toEqual([]);
    expect(await recoveryMailsTo(server, 'lia@example.com')).toHaveLength(1);

    const recover = new URL(/Voltar ao meu carrinho: (http:\/\/\S+)/.exec(mail!)![1]!);
    const context = await browser.newContext({ locale: 'pt-BR' });
    const page = await context.newPage();
    await page.goto(`${server.url}${recover.pathname}${recover.search}`, {
      waitUntil: 'networkidle',
    });
    expect(new URL(page.url()).pathname).toBe('/cart');
    expect(await page.getByRole('main').innerText()).toContain(HEADPHONES.name);
    await context.close();

    // A mail program's one-click unsubscribe: a POST without cookies.
    const unsubscribe = new URL(/List-Unsubscribe:\s+<([^>]+)>/.exec(mail!)![1]!);
    const answer = await fetch(`${server.url}${unsubscribe.pathname}${unsubscribe.search}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain(
      'não enviaremos mais e-mails sobre carrinhos abandonados',
    );
  });
});
