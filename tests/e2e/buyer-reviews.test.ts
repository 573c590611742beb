import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { orderItems } from '~/db/schema';

import { adminVisitor, signedInPage, withAdmin } from '../support/admin';
import { seriousAxeViolations } from '../support/axe';
import { openPage, VIEWPORTS } from '../support/browser';
import { useStoreAndBrowser } from '../support/fixtures';
import { insertOrderRow } from '../support/orders';
import { sampleProduct, sampleProductPath } from '../support/sample';
import type { TestServer } from '../support/server';
import { until } from '../support/until';
import { Visitor } from '../support/visitor';

const HEADPHONES = sampleProduct('Fone de Ouvido');
const KEYBOARD = sampleProduct('Teclado');
const COMMENT = 'Som limpo e chegou antes do prazo. Recomendo!';
const SENT = 'Obrigado pela avaliação! Ela aparece na loja depois de revisada pela equipe.';

/** Every .eml under the server's mail folder, soft line breaks of quoted-printable undone. */
async function emails(server: TestServer): Promise<string[]> {
  const folder = join(server.dataDir, 'mail');
  const names = await readdir(folder).catch(() => [] as string[]);
  const texts = await Promise.all(names.map((name) => readFile(join(folder, name), 'utf8')));
  return texts.map((text) => text.replace(/=\r?\n/g, ''));
}

/** The 'Avaliar os produtos' link of the delivered e-mail (waits for it). */
async function reviewLink(server: TestServer): Promise<string> {
  const mail = await until(async () => {
    return (await emails(server)).find(
      (text) =>
        text.includes('To: maria@example.com') && /Subject: Seu pedido .* foi entregue/.test(text),
    );
  }, 'the delivered e-mail');
  const link = /Avaliar os produtos: (http:\/\/\S+)/.exec(mail)![1]!.replaceAll('=3D', '=');
  // The server in tests has no PUBLIC_URL: the link's path and query, on the test server.
  const url = new URL(link);
  return `${server.url}${url.pathname}${url.search}`;
}

describe('reviews from real buyers', () => {
  let orderId = '';
  const store = useStoreAndBrowser({
    prepare: withAdmin(async (db) => {
      // Shipped, so staff's 'Entregue' is what sends the invitation.
      const order = await insertOrderRow(db, { cents: 29990 + 19990, status: 'shipped' });
      orderId = order.id;
      await db.insert(orderItems).values(
        [HEADPHONES, KEYBOARD].map((product) => ({
          orderId: order.id,
          productId: product.id,
          productName: product.name,
          productPriceCents: product.priceCents,
          quantity: 1,
          totalPriceCents: product.priceCents,
        })),
      );
    }),
  });

  it("invites the buyer when delivered; the review shows 'Compra verificada' once staff approve it", async () => {
    const { server, browser } = store;
    const admin = await adminVisitor(server.url);
    const delivered = await admin.post(`/admin/orders/${orderId}`, {
      intent: 'status',
      status: 'delivered',
    });
    expect(delivered.status).toBe(200);
    const link = await reviewLink(server);
    expect(new URL(link).pathname).toBe('/avaliar');

    // The phone, with JavaScript: the headphones.
    const { page, problems } = await openPage(browser, link, VIEWPORTS.mobile);
    expect(await page.getByRole('heading', { name: 'Avalie sua compra' }).isVisible()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      360,
    );
    const form = page.getByRole('form', { name: `Avaliar ${HEADPHONES.name}` });
    const stars = form.getByRole('group', { name: 'Sua nota' });
    expect(await stars.getByRole('radio').count()).toBe(5);
    // The stars are a radio group the keyboard works.
    await stars.getByRole('radio', { name: '5 estrelas' }).focus();
    await page.keyboard.press('Space');
    expect(await stars.getByRole('radio', { name: '5 estrelas' }).isChecked()).toBe(true);
    await form.getByLabel('Comentário (opcional)').fill(COMMENT);
    await form.getByRole('button', { name: 'Enviar avaliação' }).click();
    await page.getByText(SENT).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();

    // Without JavaScript: the keyboard (the product), by a plain form post and its redirect.
    const plain = await browser.newContext({
      viewport: VIEWPORTS.mobile,
      locale: 'pt-BR',
      javaScriptEnabled: false,
    });
    const noScript = await plain.newPage();
    await noScript.goto(link);
    const keyboardForm = noScript.getByRole('form', { name: `Avaliar ${KEYBOARD.name}` });
    await keyboardForm.getByRole('radio', { name: '4 estrelas' }).check();
    await keyboardForm.getByRole('button', { name: 'Enviar avaliação' }).click();
    await noScript.waitForURL(/\/avaliar\?/);
    expect(await noScript.getByText(SENT).count()).toBe(2);
    await plain.close();

    // Once per product: sent again, nothing more is saved.
    const again = await new Visitor(server.url).post(
      `${new URL(link).pathname}${new URL(link).search}`,
      {
        productId: HEADPHONES.id,
        rating: '1',
      },
    );
    expect(again.status).toBe(303);

    // Waiting for staff: not in the store yet; the sample's reviews say they are examples.
    const productUrl = `${server.url}${sampleProductPath('Fone de Ouvido')}`;
    const shopper = await openPage(browser, productUrl, VIEWPORTS.mobile);
    expect(await shopper.page.getByText(COMMENT).count()).toBe(0);
    expect(await shopper.page.getByText('Compra verificada').count()).toBe(0);
    expect(await shopper.page.getByTestId('review-source').first().innerText()).toBe('Exemplo');
    await shopper.page.context().close();

    // Staff see it first, and approve it.
    // Signed in over HTTP: the form's journey is admin-auth.test.ts's.
    const { page: staff } = await signedInPage(
      browser,
      server.url,
      '/admin/reviews',
      VIEWPORTS.mobile,
    );
    const staffContext = staff.context();
    await staff.getByText('2 avaliações aguardando aprovação').waitFor();
    const first = staff.getByRole('article').first();
    expect(await first.getByTestId('review-status').innerText()).toBe('Aguardando aprovação');
    expect(await seriousAxeViolations(staff)).toEqual([]);
    const maria = staff.getByRole('article').filter({ hasText: COMMENT });
    await maria.getByRole('button', { name: 'Aprovar avaliação de Maria' }).click();
    await staff.getByText('Avaliação aprovada: ela já aparece na loja.').first().waitFor();
    await staff.getByText('1 avaliação aguardando aprovação').waitFor();
    await staffContext.close();

    // In the store, with its badge, and counted in the rating.
    const after = await openPage(browser, productUrl, VIEWPORTS.mobile);
    const review = after.page.getByTestId('review').filter({ hasText: COMMENT });
    await review.waitFor();
    expect(await review.getByTestId('review-source').innerText()).toContain('Compra verificada');
    expect(await review.getByText('Maria', { exact: true }).count()).toBe(1);
    expect(await seriousAxeViolations(after.page)).toEqual([]);
    expect(after.problems).toEqual([]);
    await after.page.context().close();
  });

  it('refuses a link without the order key', async () => {
    const visitor = new Visitor(store.server.url);
    const moved = await visitor.get(
      `/avaliar?orderId=${orderId}&chave=00000000-0000-4000-8000-000000000000`,
    );
    expect(moved.status).toBe(303);
    const answer = await visitor.get(moved.location!);
    expect(answer.status).toBe(404);
    expect(answer.text).toContain('Pedido não encontrado.');
  });
});
