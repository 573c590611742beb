import { beforeAll, describe, expect, it } from 'vitest';

import { firstAdminVisitor, saveSampleSettings } from '../support/admin';
import { seriousAxeViolations } from '../support/axe';
import { openPage, VIEWPORTS } from '../support/browser';
import { useStoreAndBrowser } from '../support/fixtures';
import { sampleProduct } from '../support/sample';

// Reviewed, so the page shows its rating and review list.
const HEADPHONES = sampleProduct('Fone de Ouvido');
const SOLD_OUT = sampleProduct('Smartwatch');

// Every storefront page a shopper reaches without an order; the order pages (confirmation,
// thank-you, history with orders) are checked along the purchase in checkout.test.ts.
const PAGES = {
  home: '/',
  catalogue: '/products',
  search: '/products?q=fone',
  'empty search': '/products?q=nada-disso',
  product: `/product/${HEADPHONES.id}`,
  'sold-out product': `/product/${SOLD_OUT.id}`,
  cart: '/cart',
  checkout: '/checkout',
  favourites: '/favoritos',
  history: '/historico',
  about: '/sobre',
  returns: '/politicadevolucao',
  privacy: '/politicaprivacidade',
  faq: '/faq',
  contact: '/contato',
  'not found': '/nao-existe',
};

describe('accessibility (axe-core, serious and critical)', () => {
  const store = useStoreAndBrowser();

  const cases = Object.entries(PAGES).flatMap(([page, path]) =>
    Object.entries(VIEWPORTS).map(([viewport, size]) => [page, viewport, path, size] as const),
  );

  it.each(cases)('%s at %s width', async (_page, _viewport, path, size) => {
    // The page is opened blank: the cart is filled before the first visit, which is the page's.
    const { page, problems } = await openPage(store.browser, 'about:blank', size);
    // A cart with something in it: the list, the quantity controls and the summary get checked.
    await page.request.post(`${store.server.url}/cart`, {
      form: { intent: 'add', productId: HEADPHONES.id, quantity: '1' },
    });
    await page.goto(`${store.server.url}${path}`, { waitUntil: 'networkidle' });
    expect(await seriousAxeViolations(page)).toEqual([]);
    // The not-found page answers 404 on purpose (Chromium also logs it); nothing else may fail.
    const expected = path === PAGES['not found'] ? /404/ : /^$/;
    expect(problems.filter((problem) => !expected.test(problem))).toEqual([]);
    await page.context().close();
  });

  // The same server, its settings saved through the admin (a server costs seconds of CPU to
  // start). With the PIX price and instalments on, so their colours are checked on dark cards too.
  describe('in the dark scheme', () => {
    beforeAll(async () => {
      await saveSampleSettings(await firstAdminVisitor(store.server), {
        enable_dark_mode: true,
        pix_discount_percent: 5,
        max_installments: 12,
      });
    });

    it.each([
      '/',
      '/products',
      `/product/${HEADPHONES.id}`,
      `/product/${SOLD_OUT.id}`,
      '/favoritos',
      '/cart',
      '/checkout',
    ])(
      '%s at 360 px (the checkout with its errors, the home with its cart toast)',
      async (path) => {
        const context = await store.browser.newContext({
          viewport: VIEWPORTS.mobile,
          colorScheme: 'dark',
          locale: 'pt-BR',
        });
        const page = await context.newPage();
        await page.request.post(`${store.server.url}/cart`, {
          form: { intent: 'add', productId: HEADPHONES.id, quantity: '1' },
        });
        await page.goto(`${store.server.url}${path}`, { waitUntil: 'networkidle' });
        expect(await page.evaluate(() => getComputedStyle(document.body).colorScheme)).toBe('dark');
        if (path === '/checkout') {
          await page.getByRole('button', { name: 'Finalizar pedido' }).click();
          await expect.poll(() => page.getByText('Informe seu nome completo.').count()).toBe(1);
        }
        if (path === '/') {
          await page.getByTestId('product-card').first().getByRole('button').click();
          await page
            .getByTestId('card-feedback')
            .getByRole('link', { name: 'Ver carrinho' })
            .waitFor();
        }
        expect(await seriousAxeViolations(page)).toEqual([]);
        await context.close();
      },
    );
  });
});
