import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { products } from '~/db/schema';
import { ogImagePath } from '~/lib/seo';
import { pixDiscountCents } from '~/modules/pricing';

import { openPage, VIEWPORTS, waitForHydration } from '../support/browser';
import { useStoreAndBrowser } from '../support/fixtures';
import { sampleProduct } from '../support/sample';
import { seriousAxeViolations } from '../support/axe';

// Two reviews (5 and 4), 75 in stock, R$ 299,90.
const HEADPHONES = sampleProduct('Fone de Ouvido');
// No reviews, 5 in stock.
const HEADSET = sampleProduct('Headset Gamer');
// No reviews, R$ 1.234,56.
const MONITOR = sampleProduct('Monitor 27');
// Stock 0.
const SMARTWATCH = sampleProduct('Smartwatch');

/** The product's own details, apart from the related products' cards below them. */
const details = (page: Page) => page.getByTestId('product-details');

async function productJsonLd(page: Page): Promise<Record<string, unknown>> {
  const blocks = await page
    .locator('script[type="application/ld+json"]')
    .evaluateAll((scripts) => scripts.map((script) => JSON.parse(script.textContent ?? 'null')));
  const products = blocks.filter((block) => block?.['@type'] === 'Product');
  expect(products).toHaveLength(1);
  return products[0];
}

describe('product page', () => {
  const store = useStoreAndBrowser();

  const url = (id: string) => `${store.server.url}/product/${id}`;
  // Where an id link lands: the product's address by its slug.
  const HEADPHONES_URL = () => url('fone-de-ouvido-bluetooth-pro');
  const HEADSET_URL = () => url('headset-gamer-com-microfone');

  it.each(Object.entries(VIEWPORTS))(
    'shows name, price, stock, rating, badges and reviews (%s)',
    async (_name, viewport) => {
      const { page, problems } = await openPage(store.browser, url(HEADPHONES.id), viewport);

      await expect(page.title()).resolves.toBe(`${HEADPHONES.name} | TechStore`);
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(HEADPHONES.name);
      expect(await details(page).locator('.product-price').innerText()).toBe('R$ 299,90');
      // Plenty in stock: no stock note at all.
      expect(await page.getByTestId('stock').count()).toBe(0);
      expect(await page.getByText(/em estoque/).count()).toBe(0);
      // Neither a PIX discount nor instalments in this store.
      expect(await details(page).getByTestId('price-offers').count()).toBe(0);
      expect(await page.getByText('Avaliação 4,5 de 5 (2 avaliações)').first().count()).toBe(1);
      for (const badge of ['Frete grátis', 'Compra segura', '30 dias para troca']) {
        expect(await page.getByRole('listitem').filter({ hasText: badge }).count()).toBe(1);
      }
      expect(await page.getByText(HEADPHONES.description!).isVisible()).toBe(true);
      const reviews = page.getByTestId('review');
      expect(await reviews.count()).toBe(2);
      expect(await reviews.allInnerTexts()).toEqual(
        expect.arrayContaining([
          expect.stringContaining('Mariana Souza'),
          expect.stringContaining('Rafael Lima'),
        ]),
      );
      // Dates are written in pt-BR, e.g. "21 de novembro de 2026".
      expect(await reviews.first().locator('time').innerText()).toMatch(
        /^\d{1,2} de \p{L}+ de \d{4}$/u,
      );
      const images = page.locator('[data-testid="gallery-strip"] img');
      expect(await images.first().getAttribute('loading')).toBe('eager');
      expect(await images.first().getAttribute('width')).toBe('800');
      expect(await images.nth(1).getAttribute('loading')).toBe('lazy');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      expect(await seriousAxeViolations(page)).toEqual([]);
      // Hydrated without a mismatch or any failed request.
      expect(problems).toEqual([]);
      await page.context().close();
    },
  );

  it('says "Sem avaliações" for a product nobody reviewed, and formats big prices', async () => {
    const { page, problems } = await openPage(store.browser, url(MONITOR.id));
    expect(await details(page).locator('.product-price').innerText()).toBe('R$ 1.234,56');
    expect(await page.getByText('Sem avaliações').count()).toBeGreaterThan(0);
    expect(await page.getByText('Este produto ainda não tem avaliações.').isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('keeps the quantity between 1 and the stock, with the buttons and when typing', async () => {
    const { page, problems } = await openPage(store.browser, url(HEADSET.id));
    const quantity = page.getByLabel('Quantidade', { exact: true });
    const less = page.getByRole('button', { name: 'Diminuir quantidade' });
    const more = page.getByRole('button', { name: 'Aumentar quantidade' });

    expect(await quantity.inputValue()).toBe('1');
    expect(await quantity.getAttribute('max')).toBe('5');
    // The limits stay focusable (aria-disabled), so a shopper can still press them: no effect.
    await less.click({ force: true });
    expect(await quantity.inputValue()).toBe('1');
    expect(await less.getAttribute('aria-disabled')).toBe('true');
    for (let i = 0; i < 7; i++) await more.click({ force: true });
    expect(await quantity.inputValue()).toBe('5');
    expect(await more.getAttribute('aria-disabled')).toBe('true');

    for (const [typed, kept] of [
      ['99', '5'],
      ['0', '1'],
      ['-3', '1'],
      ['3', '3'],
    ]) {
      await quantity.fill(typed!);
      await quantity.blur();
      expect(await quantity.inputValue(), `typed ${typed}`).toBe(kept);
    }
    await quantity.fill('');
    await quantity.blur();
    expect(await quantity.inputValue()).toBe('1');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("stops the quantity at the store's limit per order when the stock is larger", async () => {
    // 75 in stock; the store sells at most 10 of one product per order (max_quantity_per_item).
    const { page, problems } = await openPage(store.browser, url(HEADPHONES.id));
    const quantity = page.getByLabel('Quantidade', { exact: true });
    const more = page.getByRole('button', { name: 'Aumentar quantidade' });
    expect(await quantity.getAttribute('max')).toBe('10');
    for (let i = 0; i < 12; i++) await more.click({ force: true });
    expect(await quantity.inputValue()).toBe('10');
    expect(await more.getAttribute('aria-disabled')).toBe('true');
    await quantity.fill('9999');
    await quantity.blur();
    expect(await quantity.inputValue()).toBe('10');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('adds the chosen quantity to the cart and updates the header badge', async () => {
    const { page, problems } = await openPage(store.browser, url(HEADSET.id));
    await page.getByRole('button', { name: 'Aumentar quantidade' }).click();
    await page.getByRole('button', { name: 'Adicionar ao carrinho', exact: true }).click();

    await page.getByTestId('cart-feedback').getByRole('link', { name: 'Ver carrinho' }).waitFor();
    await expect.poll(() => page.getByTestId('cart-count').innerText()).toBe('2');
    expect(page.url()).toBe(HEADSET_URL());
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('"Comprar agora" puts the product in the cart and goes to /checkout', async () => {
    const { page } = await openPage(store.browser, url(MONITOR.id));
    await page.getByRole('button', { name: 'Comprar agora' }).click();
    await page.waitForURL(`${store.server.url}/checkout`);

    await page.goto(`${store.server.url}/cart`, { waitUntil: 'networkidle' });
    expect(await page.getByText(MONITOR.name).count()).toBeGreaterThan(0);
    await page.context().close();
  });

  it('works before JavaScript: the form posts to the cart and the strip scrolls', async () => {
    const context = await store.browser.newContext({ javaScriptEnabled: false, locale: 'pt-BR' });
    const page = await context.newPage();
    await page.goto(url(HEADPHONES.id));
    const strip = page.getByTestId('gallery-strip');
    expect(await strip.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);

    await page.getByLabel('Quantidade', { exact: true }).fill('3');
    await page.getByRole('button', { name: 'Adicionar ao carrinho', exact: true }).click();
    await page.waitForURL(`${store.server.url}/cart`);
    expect(await page.getByText(HEADPHONES.name).count()).toBeGreaterThan(0);
    await page.goto(`${store.server.url}/cart`);
    expect(await page.getByTestId('cart-count').innerText()).toBe('3');
    await context.close();
  });

  it('shows a sold-out product as "Esgotado" without buy or add buttons', async () => {
    const { page, problems } = await openPage(store.browser, url(SMARTWATCH.id));
    expect(await page.getByTestId('out-of-stock').innerText()).toContain('Esgotado');
    expect(
      await page.getByRole('button', { name: 'Adicionar ao carrinho', exact: true }).count(),
    ).toBe(0);
    expect(await page.getByRole('button', { name: 'Comprar agora' }).count()).toBe(0);
    expect(await page.getByLabel('Quantidade', { exact: true }).count()).toBe(0);
    expect((await productJsonLd(page)).offers).toMatchObject({
      availability: 'https://schema.org/OutOfStock',
    });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it.each([
    ['an unknown id', '5a3b1e00-0000-4000-8000-00000000ffff'],
    ['a malformed id', 'nao-e-um-id'],
  ])('answers 404 "Produto não encontrado" for %s, inside the store', async (_name, id) => {
    const { page, problems } = await openPage(store.browser, `${store.server.url}/product/${id}`);
    const response = await page.request.get(`${store.server.url}/product/${id}`);
    expect(response.status()).toBe(404);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(
      'Produto não encontrado',
    );
    expect(
      await page.getByRole('link', { name: 'Ver todos os produtos' }).getAttribute('href'),
    ).toBe('/products');
    expect(await page.getByRole('link', { name: 'TechStore: início' }).isVisible()).toBe(true);
    await expect(page.title()).resolves.toBe('Produto não encontrado | TechStore');
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe(
      'noindex, nofollow',
    );
    expect(problems).toEqual([
      `HTTP 404: ${store.server.url}/product/${id}`,
      'console: Failed to load resource: the server responded with a status of 404 (Not Found)',
    ]);
    await page.context().close();
  });

  it('moves through the images with the buttons, the thumbnails and the arrow keys', async () => {
    const { page, problems } = await openPage(store.browser, url(HEADPHONES.id), VIEWPORTS.mobile);
    const position = page.getByTestId('gallery-position');
    const strip = page.getByTestId('gallery-strip');
    // Which image the strip has come to rest on (fractions while it is still moving).
    const shown = () =>
      strip.evaluate(
        (element) => Math.round((element.scrollLeft / element.clientWidth) * 100) / 100,
      );

    expect(await position.innerText()).toBe('Imagem 1 de 2');
    expect(await position.getAttribute('aria-live')).toBe('polite');
    // Said to screen readers; what the eye gets is the dots.
    expect(await position.evaluate((element) => element.getBoundingClientRect().width)).toBe(1);
    await page.getByRole('button', { name: 'Próxima imagem' }).click();
    expect(await position.innerText()).toBe('Imagem 2 de 2');
    await expect.poll(shown).toBe(1);
    await page.getByRole('button', { name: 'Imagem anterior' }).click();
    expect(await position.innerText()).toBe('Imagem 1 de 2');
    await expect.poll(shown).toBe(0);

    const secondThumb = page.getByRole('button', { name: 'Imagem 2 de 2' });
    await secondThumb.click();
    expect(await secondThumb.getAttribute('aria-current')).toBe('true');
    await expect.poll(shown).toBe(1);

    await strip.focus();
    await page.keyboard.press('ArrowLeft');
    expect(await position.innerText()).toBe('Imagem 1 de 2');
    await expect.poll(shown).toBe(0);
    await page.keyboard.press('ArrowRight');
    expect(await position.innerText()).toBe('Imagem 2 de 2');
    await expect.poll(shown).toBe(1);
    // Wraps around at the ends.
    await page.keyboard.press('ArrowRight');
    expect(await position.innerText()).toBe('Imagem 1 de 2');
    await expect.poll(shown).toBe(0);

    // Plain scrolling (a swipe, a wheel) moves the position too.
    await strip.hover();
    await page.mouse.wheel(300, 0);
    await expect.poll(shown).toBe(1);
    await expect.poll(() => position.innerText()).toBe('Imagem 2 de 2');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('keeps a favourite across reloads and in step with other tabs', async () => {
    const { page, problems } = await openPage(store.browser, url(HEADPHONES.id));
    const favourite = (on: Page) => on.getByRole('button', { name: 'Favoritar' });
    expect(await favourite(page).getAttribute('aria-pressed')).toBe('false');
    await favourite(page).click();
    expect(await favourite(page).getAttribute('aria-pressed')).toBe('true');
    expect(
      await page.evaluate(() => JSON.parse(localStorage.getItem('vitrine:wishlist') ?? '[]')),
    ).toEqual([HEADPHONES.id]);

    await page.reload({ waitUntil: 'networkidle' });
    await expect.poll(() => favourite(page).getAttribute('aria-pressed')).toBe('true');

    const otherTab = await page.context().newPage();
    await otherTab.goto(url(HEADPHONES.id), { waitUntil: 'networkidle' });
    await expect.poll(() => favourite(otherTab).getAttribute('aria-pressed')).toBe('true');
    await favourite(otherTab).click();
    await expect.poll(() => favourite(page).getAttribute('aria-pressed')).toBe('false');

    // Another product is not a favourite.
    await page.goto(url(MONITOR.id), { waitUntil: 'networkidle' });
    expect(await favourite(page).getAttribute('aria-pressed')).toBe('false');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('copies the link when the store.browser has no share sheet', async () => {
    const context = await store.browser.newContext({ locale: 'pt-BR' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: store.server.url,
    });
    await context.addInitScript(() => {
      Object.defineProperty(navigator, 'share', { value: undefined });
    });
    const page = await context.newPage();
    await page.goto(url(MONITOR.id), { waitUntil: 'networkidle' });
    // Before hydration the button has no handler yet: a click then would do nothing.
    await waitForHydration(page);

    await page.getByRole('button', { name: 'Compartilhar' }).click();
    await page.getByText('Link copiado!').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(page.url());
    expect(page.url()).toMatch(/\/product\/monitor-27/);
    await context.close();
  });

  it('shows the link to copy by hand when the clipboard refuses', async () => {
    const context = await store.browser.newContext({ locale: 'pt-BR' });
    await context.addInitScript(() => {
      Object.defineProperty(navigator, 'share', { value: undefined });
      Object.defineProperty(navigator, 'clipboard', {
        value: { writeText: () => Promise.reject(new DOMException('Denied', 'NotAllowedError')) },
      });
    });
    const page = await context.newPage();
    await page.goto(url(MONITOR.id), { waitUntil: 'networkidle' });
    // Before hydration the button has no handler yet: a click then would do nothing.
    await waitForHydration(page);

    await page.getByRole('button', { name: 'Compartilhar' }).click();
    const field = page.getByLabel('Não foi possível copiar. Copie o link:');
    await field.waitFor();
    expect(await field.inputValue()).toBe(page.url());
    expect(page.url()).toMatch(/\/product\/monitor-27/);
    await context.close();
  });

  it('describes the product for search engines, with a rating only when there are reviews', async () => {
    const { page } = await openPage(store.browser, url(HEADPHONES.id));
    const ld = await productJsonLd(page);
    expect(ld).toMatchObject({
      '@context': 'https://schema.org',
      name: HEADPHONES.name,
      description: HEADPHONES.description,
      // Its one variant's SKU, the feeds' id (tests/db/product-feeds.test.ts proves they agree).
      sku: expect.stringMatching(/^[\p{L}\p{N}._-]+$/u),
      image: HEADPHONES.imageUrls!.map((image) => `${store.server.url}${image}`),
      brand: { name: 'TechStore' },
      offers: {
        price: '299.90',
        priceCurrency: 'BRL',
        availability: 'https://schema.org/InStock',
        url: HEADPHONES_URL(),
        seller: { name: 'TechStore' },
      },
      aggregateRating: { ratingValue: 4.5, reviewCount: 2 },
    });
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(HEADPHONES_URL());
    expect(await page.locator('meta[property="og:type"]').getAttribute('content')).toBe('product');
    expect(await page.locator('meta[property="og:image"]').getAttribute('content')).toBe(
      `${store.server.url}${ogImagePath(HEADPHONES.imageUrls![0]!)}`,
    );

    await page.goto(url(MONITOR.id), { waitUntil: 'networkidle' });
    const unreviewed = await productJsonLd(page);
    expect(unreviewed.offers).toMatchObject({ price: '1234.56' });
    expect(unreviewed).not.toHaveProperty('aggregateRating');
    await page.context().close();
  });

  it.each(Object.entries(VIEWPORTS))(
    'puts the description beside the gallery on desktop and below it on phones (%s)',
    async (name, viewport) => {
      const { page, problems } = await openPage(store.browser, url(HEADPHONES.id), viewport);
      const gallery = (await page.getByTestId('product-media').boundingBox())!;
      const description = (await page.getByRole('region', { name: 'Descrição' }).boundingBox())!;
      if (name === 'desktop') {
        // Right of the gallery, and starting before the gallery ends: no empty column.
        expect(description.x).toBeGreaterThanOrEqual(gallery.x + gallery.width);
        expect(description.y).toBeLessThan(gallery.y + gallery.height);
      } else {
        expect(description.x).toBe(gallery.x);
        expect(description.y).toBeGreaterThanOrEqual(gallery.y + gallery.height);
      }
      expect(problems).toEqual([]);
      await page.context().close();
    },
  );

  it.each(Object.entries(VIEWPORTS))(
    'shows styled breadcrumbs with the category by its slug (%s)',
    async (name, viewport) => {
      const { page, problems } = await openPage(store.browser, url(HEADPHONES.id), viewport);
      const trail = page.getByRole('navigation', { name: 'Você está em' });
      const links = trail.getByRole('link');
      expect(await links.allInnerTexts()).toEqual(['Início', 'Produtos', 'Áudio']);
      expect(await trail.getByRole('link', { name: 'Áudio' }).getAttribute('href')).toBe(
        '/products?categoria=audio',
      );
      const current = trail.locator('[aria-current="page"]');
      expect(await current.innerText()).toBe(HEADPHONES.name);
      // Chevrons between the crumbs, hidden from screen readers.
      expect(await trail.locator('li[aria-hidden="true"] svg').count()).toBe(3);
      // One line; on a phone the name is cut short rather than wrapped or overflowing.
      const box = (await trail.boundingBox())!;
      expect(box.height).toBeLessThan(30);
      if (name === 'mobile') {
        expect(
          await current.evaluate(
            (element) => element.parentElement!.scrollWidth > element.parentElement!.clientWidth,
          ),
        ).toBe(true);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );

      await trail.getByRole('link', { name: 'Áudio' }).click();
      await page.waitForURL(`${store.server.url}/products?categoria=audio`);
      expect(problems).toEqual([]);
      await page.context().close();
    },
  );

  it.each(Object.entries(VIEWPORTS))(
    'moves through the images with the dots, which show the current one (%s)',
    async (name, viewport) => {
      const { page, problems } = await openPage(store.browser, url(HEADPHONES.id), viewport);
      const dots = page.getByTestId('gallery-dots').getByRole('button');
      expect(await dots.count()).toBe(2);
      const first = page.getByRole('button', { name: 'Imagem 1 de 2' });
      const second = page.getByRole('button', { name: 'Imagem 2 de 2' });
      expect(await first.getAttribute('aria-current')).toBe('true');
      expect(await second.getAttribute('aria-current')).toBeNull();
      // No 'Imagem 1 de 2' text on screen: a dot on phones, a thumbnail on desktop.
      const position = page.getByTestId('gallery-position');
      expect(await position.innerText()).toBe('Imagem 1 de 2');
      expect((await position.boundingBox())!.width).toBeLessThanOrEqual(1);
      expect(await first.locator('img').isVisible()).toBe(name === 'desktop');
      const strip = page.getByTestId('gallery-strip');
      const shown = () =>
        strip.evaluate(
          (element) => Math.round((element.scrollLeft / element.clientWidth) * 100) / 100,
        );

      await second.click();
      await expect.poll(shown).toBe(1);
      expect(await second.getAttribute('aria-current')).toBe('true');
      expect(await first.getAttribute('aria-current')).toBeNull();
      // By keyboard: Tab to a dot, Enter.
      await first.focus();
      await page.keyboard.press('Enter');
      await expect.poll(shown).toBe(0);
      expect(await first.getAttribute('aria-current')).toBe('true');
      expect(problems).toEqual([]);
      await page.context().close();
    },
  );

  it('suggests other products of the same category that are in stock', async () => {
    const { page, problems } = await openPage(store.browser, url(HEADPHONES.id));
    const related = page.getByRole('region', { name: 'Você também pode gostar' });
    const cards = related.getByTestId('product-card');
    const names = await cards.getByRole('heading').allInnerTexts();
    expect(names.sort()).toEqual([sampleProduct('Caixa de Som').name, HEADSET.name].sort());
    // Every one from Áudio, none of this product itself.
    for (const card of await cards.all()) expect(await card.innerText()).toContain('Áudio');

    // Accessories: the sold-out smartwatch is not suggested on the charger's page.
    await page.goto(url(sampleProduct('Carregador').id), { waitUntil: 'networkidle' });
    expect(await page.getByRole('region', { name: 'Você também pode gostar' }).count()).toBe(0);
    await page.goto(url(SMARTWATCH.id), { waitUntil: 'networkidle' });
    expect(
      await page
        .getByRole('region', { name: 'Você também pode gostar' })
        .getByTestId('product-card')
        .getByRole('heading')
        .allInnerTexts(),
    ).toEqual([sampleProduct('Carregador').name]);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe('product page with other settings', () => {
  const store = useStoreAndBrowser({
    settings: {
      shipping_mode: 'flat_rate',
      free_shipping_threshold_cents: 15000,
      return_window_days: 60,
      enable_reviews: false,
      enable_wishlist: false,
    },
  });

  it('follows the shipping, return window, reviews and wishlist settings', async () => {
    const { page, problems } = await openPage(
      store.browser,
      `${store.server.url}/product/${HEADPHONES.id}`,
    );
    for (const badge of ['Frete grátis acima de R$ 150,00', '60 dias para troca']) {
      expect(await page.getByRole('listitem').filter({ hasText: badge }).count()).toBe(1);
    }
    expect(await page.getByText('Avaliação', { exact: false }).count()).toBe(0);
    expect(await page.getByText('Sem avaliações').count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Avaliações' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Favoritar' }).count()).toBe(0);
    expect(await productJsonLd(page)).not.toHaveProperty('aggregateRating');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

// Headset 3 in stock, mouse 1, charger 9, keyboard 10; 10% off with PIX, up to 12 instalments.
const STOCK = [
  [HEADSET, 3],
  [sampleProduct('Mouse Sem Fio'), 1],
  [sampleProduct('Carregador'), 9],
  [sampleProduct('Teclado'), 10],
] as const;

describe('product page with low stock and price offers', () => {
  const store = useStoreAndBrowser({
    settings: { pix_discount_percent: 10, max_installments: 12, min_installment_cents: 500 },
    prepare: async (db) => {
      for (const [product, stock] of STOCK) {
        await db.update(products).set({ stockQuantity: stock }).where(eq(products.id, product.id));
      }
    },
  });
  const url = (id: string) => `${store.server.url}/product/${id}`;

  it('says how many are left only when there are 9 or fewer', async () => {
    const { page, problems } = await openPage(store.browser, url(HEADSET.id), VIEWPORTS.mobile);
    expect(await page.getByTestId('stock').innerText()).toBe('Últimas 3 unidades');
    for (const [product, stock] of STOCK) {
      await page.goto(url(product.id), { waitUntil: 'networkidle' });
      const note = page.getByTestId('stock');
      if (stock === 1) expect(await note.innerText()).toBe('Última unidade');
      else if (stock <= 9) expect(await note.innerText()).toBe(`Últimas ${stock} unidades`);
      else expect(await note.count()).toBe(0);
      expect(await page.getByText(/em estoque/).count()).toBe(0);
    }
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it.each(Object.entries(VIEWPORTS))(
    'shows the PIX price and the instalments under the price (%s)',
    async (_name, viewport) => {
      const { page, problems } = await openPage(store.browser, url(HEADPHONES.id), viewport);
      // R$ 299,90 − 10% (R$ 29,99) = R$ 269,91.
      const pixCents =
        HEADPHONES.priceCents -
        pixDiscountCents(HEADPHONES.priceCents, { pix_discount_percent: 10 });
      expect(pixCents).toBe(26991);
      expect(await details(page).getByTestId('pix-price').innerText()).toBe(
        'R$ 269,91 no PIX (10% de desconto)',
      );
      // Card and 12 instalments are switched on, and the sandbox takes cards: R$ 299,90 / 12.
      expect(await details(page).getByTestId('installments').innerText()).toBe(
        'ou 12x de R$ 24,99 sem juros',
      );
      // Right under the price.
      const price = (await details(page).locator('.product-price').boundingBox())!;
      const offers = (await details(page).getByTestId('price-offers').boundingBox())!;
      expect(offers.y).toBeGreaterThanOrEqual(price.y + price.height);
      expect(offers.y - (price.y + price.height)).toBeLessThan(16);
      expect(await seriousAxeViolations(page)).toEqual([]);

      // The checkout charges the same for one unit paid with PIX (shipping is free here).
      await page.getByRole('button', { name: 'Comprar agora' }).click();
      await page.waitForURL(`${store.server.url}/checkout`);
      expect(await page.getByTestId('summary-total').innerText()).toBe('R$ 269,91');
      expect(problems).toEqual([]);
      await page.context().close();
    },
  );
});

describe('product page with instalments but card payments off', () => {
  const store = useStoreAndBrowser({
    settings: { max_installments: 12, enable_credit_card: false },
  });

  it('offers no instalments and no PIX price', async () => {
    const { page, problems } = await openPage(
      store.browser,
      `${store.server.url}/product/${HEADPHONES.id}`,
    );
    expect(await details(page).locator('.product-price').innerText()).toBe('R$ 299,90');
    expect(await details(page).getByTestId('price-offers').count()).toBe(0);
    expect(await page.getByText(/sem juros/).count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
