import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { openPage, VIEWPORTS } from '../support/browser';
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

  it.each(Object.entries(VIEWPORTS))(
    'shows name, price, stock, rating, badges and reviews (%s)',
    async (_name, viewport) => {
      const { page, problems } = await openPage(store.browser, url(HEADPHONES.id), viewport);

      await expect(page.title()).resolves.toBe(`${HEADPHONES.name} | TechStore`);
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(HEADPHONES.name);
      expect(await page.locator('.product-price').innerText()).toBe('R$ 299,90');
      expect(await page.getByTestId('stock').innerText()).toBe('75 em estoque');
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
    expect(await page.locator('.product-price').innerText()).toBe('R$ 1.234,56');
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

  it('adds the chosen quantity to the cart and updates the header badge', async () => {
    const { page, problems } = await openPage(store.browser, url(HEADSET.id));
    await page.getByRole('button', { name: 'Aumentar quantidade' }).click();
    await page.getByRole('button', { name: 'Adicionar ao carrinho' }).click();

    await page.getByTestId('cart-feedback').getByRole('link', { name: 'Ver carrinho' }).waitFor();
    await expect.poll(() => page.getByTestId('cart-count').innerText()).toBe('2');
    expect(page.url()).toBe(url(HEADSET.id));
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
    await page.getByRole('button', { name: 'Adicionar ao carrinho' }).click();
    await page.waitForURL(`${store.server.url}/cart`);
    expect(await page.getByText(HEADPHONES.name).count()).toBeGreaterThan(0);
    await page.goto(`${store.server.url}/cart`);
    expect(await page.getByTestId('cart-count').innerText()).toBe('3');
    await context.close();
  });

  it('shows a sold-out product as "Esgotado" without buy or add buttons', async () => {
    const { page, problems } = await openPage(store.browser, url(SMARTWATCH.id));
    expect(await page.getByTestId('out-of-stock').innerText()).toContain('Esgotado');
    expect(await page.getByRole('button', { name: 'Adicionar ao carrinho' }).count()).toBe(0);
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

    await page.getByRole('button', { name: 'Compartilhar' }).click();
    await page.getByText('Link copiado!').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url(MONITOR.id));
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

    await page.getByRole('button', { name: 'Compartilhar' }).click();
    const field = page.getByLabel('Não foi possível copiar. Copie o link:');
    await field.waitFor();
    expect(await field.inputValue()).toBe(url(MONITOR.id));
    await context.close();
  });

  it('describes the product for search engines, with a rating only when there are reviews', async () => {
    const { page } = await openPage(store.browser, url(HEADPHONES.id));
    const ld = await productJsonLd(page);
    expect(ld).toMatchObject({
      '@context': 'https://schema.org',
      name: HEADPHONES.name,
      description: HEADPHONES.description,
      sku: HEADPHONES.id,
      image: HEADPHONES.imageUrls!.map((image) => `${store.server.url}${image}`),
      brand: { name: 'TechStore' },
      offers: {
        price: '299.90',
        priceCurrency: 'BRL',
        availability: 'https://schema.org/InStock',
        url: url(HEADPHONES.id),
        seller: { name: 'TechStore' },
      },
      aggregateRating: { ratingValue: 4.5, reviewCount: 2 },
    });
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(
      url(HEADPHONES.id),
    );
    expect(await page.locator('meta[property="og:type"]').getAttribute('content')).toBe('product');
    expect(await page.locator('meta[property="og:image"]').getAttribute('content')).toBe(
      `${store.server.url}${HEADPHONES.imageUrls![0]}`,
    );

    await page.goto(url(MONITOR.id), { waitUntil: 'networkidle' });
    const unreviewed = await productJsonLd(page);
    expect(unreviewed.offers).toMatchObject({ price: '1234.56' });
    expect(unreviewed).not.toHaveProperty('aggregateRating');
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
