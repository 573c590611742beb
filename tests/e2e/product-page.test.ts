import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';

import { products } from '~/db/schema';
import { ogImagePath } from '~/lib/seo';
import { pixDiscountCents } from '~/modules/pricing';

import { adminVisitor, saveSampleSettings, withAdmin } from '../support/admin';
import { openPage, VIEWPORTS, waitForHydration } from '../support/browser';
import { useStoreAndBrowser } from '../support/fixtures';
import { attribute, bodyOf, element, elements, jsonLd, textsOf } from '../support/html';
import { sampleProduct } from '../support/sample';
import { seriousAxeViolations } from '../support/axe';
import { Visitor, visibleText } from '../support/visitor';

// Two reviews (5 and 4), 75 in stock, R$ 299,90.
const HEADPHONES = sampleProduct('Fone de Ouvido');
// No reviews, 5 in stock.
const HEADSET = sampleProduct('Headset Gamer');
// No reviews, R$ 1.234,56.
const MONITOR = sampleProduct('Monitor 27');
// Stock 0.
const SMARTWATCH = sampleProduct('Smartwatch');

// The stock this file's store gives them (the headset keeps the sample's): the notes' edges.
const STOCK = [
  [HEADSET, 5],
  [sampleProduct('Mouse Sem Fio'), 1],
  [sampleProduct('Carregador'), 9],
  [sampleProduct('Teclado'), 10],
] as const;

/** The product's own details, apart from the related products' cards below them. */
const details = (page: Page) => page.getByTestId('product-details');

/** The one Product block of a page's JSON-LD, read from its HTML. */
function productLd(html: string): Record<string, unknown> {
  const found = jsonLd(html).filter((block) => block['@type'] === 'Product');
  expect(found).toHaveLength(1);
  return found[0]!;
}

/** The product's own details in the page's HTML. */
const detailsOf = (html: string) => element(html, '[data-testid="product-details"]');

/** The quantity fields a shopper can type in (a form's hidden quantity is not one). */
const quantityFields = (html: string) =>
  elements(html, 'input[name="quantity"]').filter((field) => attribute(field, 'type') !== 'hidden');

/** The text of each list item of the page that contains `text`. */
const listItemsWith = (html: string, text: string) =>
  textsOf(bodyOf(html), 'li').filter((item) => item.includes(text));

// One server for the file: each block that needs other settings saves them through the admin
// first, in the order the blocks run (a server costs seconds of CPU to start).
describe('product page', () => {
  const store = useStoreAndBrowser({
    prepare: withAdmin(async (db) => {
      for (const [product, stock] of STOCK) {
        await db.update(products).set({ stockQuantity: stock }).where(eq(products.id, product.id));
      }
    }),
  });

  const url = (id: string) => `${store.server.url}/product/${id}`;
  // Where an id link lands: the product's address by its slug.
  const HEADPHONES_URL = () => url('fone-de-ouvido-bluetooth-pro');
  const HEADSET_URL = () => url('headset-gamer-com-microfone');

  /** A product's page as the server sends it, through the id link's 301 to its slug. */
  async function productHtml(id: string): Promise<string> {
    const visitor = new Visitor(store.server.url);
    let page = await visitor.get(`/product/${id}`);
    if (page.status === 301 && page.location) page = await visitor.get(page.location);
    expect(page.status).toBe(200);
    return page.text;
  }

  it.each(Object.entries(VIEWPORTS))(
    'lays out the gallery, description and breadcrumbs, and the crumb leads to the category (%s)',
    async (name, viewport) => {
      const { page, problems } = await openPage(store.browser, url(HEADPHONES.id), viewport);
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(HEADPHONES.name);
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
      // The breadcrumbs on one line; on a phone the name is cut short rather than wrapped or
      // overflowing.
      const trail = page.getByRole('navigation', { name: 'Você está em' });
      const current = trail.locator('[aria-current="page"]');
      expect(await current.innerText()).toBe(HEADPHONES.name);
      expect((await trail.boundingBox())!.height).toBeLessThan(30);
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
      expect(await seriousAxeViolations(page)).toEqual([]);

      await trail.getByRole('link', { name: 'Áudio' }).click();
      await page.waitForURL(`${store.server.url}/products?categoria=audio`);
      // Hydrated without a mismatch or any failed request, on both pages.
      expect(problems).toEqual([]);
      await page.context().close();
    },
  );

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

  it('answers 404 "Produto não encontrado" inside the store, which works from there', async () => {
    const id = '5a3b1e00-0000-4000-8000-00000000ffff';
    const { page, problems } = await openPage(store.browser, `${store.server.url}/product/${id}`);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(
      'Produto não encontrado',
    );
    expect(await page.getByRole('link', { name: 'TechStore: início' }).isVisible()).toBe(true);
    // Hydrated: nothing failed but the page's own 404.
    expect(problems).toEqual([
      `HTTP 404: ${store.server.url}/product/${id}`,
      'console: Failed to load resource: the server responded with a status of 404 (Not Found)',
    ]);
    await page.getByRole('link', { name: 'Ver todos os produtos' }).click();
    await page.waitForURL(`${store.server.url}/products`);
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

  // What the server writes into the page, read from its HTML: the browser tests above use it.
  describe('as the server renders it', () => {
    it('shows name, price, rating, badges, reviews and pictures, and neither a stock note nor offers', async () => {
      const html = await productHtml(HEADPHONES.id);
      const body = bodyOf(html);
      expect(textsOf(html, 'title')).toEqual([`${HEADPHONES.name} | TechStore`]);
      expect(textsOf(body, 'h1')).toEqual([HEADPHONES.name]);
      expect(textsOf(detailsOf(html), '.product-price')).toEqual(['R$ 299,90']);
      // Plenty in stock: no stock note at all, and a quantity to choose.
      expect(elements(body, '[data-testid="stock"]')).toEqual([]);
      expect(visibleText(body)).not.toMatch(/em estoque/);
      expect(quantityFields(detailsOf(html))).toHaveLength(1);
      // Neither a PIX discount nor instalments in this store.
      expect(elements(detailsOf(html), '[data-testid="price-offers"]')).toEqual([]);
      expect(visibleText(body)).toContain('Avaliação 4,5 de 5 (2 avaliações)');
      for (const badge of ['Frete grátis', 'Compra segura', '30 dias para troca']) {
        expect(listItemsWith(html, badge)).toHaveLength(1);
      }
      expect(visibleText(body)).toContain(HEADPHONES.description);
      expect(textsOf(body, 'button').filter((text) => text === 'Favoritar')).toHaveLength(1);
      const reviews = elements(body, '[data-testid="review"]');
      expect(reviews.map(visibleText)).toEqual(
        expect.arrayContaining([
          expect.stringContaining('Mariana Souza'),
          expect.stringContaining('Rafael Lima'),
        ]),
      );
      expect(reviews).toHaveLength(2);
      // Dates are written in pt-BR, e.g. "21 de novembro de 2026".
      expect(textsOf(reviews[0]!, 'time')[0]).toMatch(/^\d{1,2} de \p{L}+ de \d{4}$/u);
      const images = elements(element(body, '[data-testid="gallery-strip"]'), 'img');
      expect(attribute(images[0]!, 'loading')).toBe('eager');
      expect(attribute(images[0]!, 'width')).toBe('800');
      expect(attribute(images[1]!, 'loading')).toBe('lazy');
      // The breadcrumbs: the category by its slug, chevrons between the crumbs hidden from
      // screen readers.
      const trail = element(body, 'nav[aria-label="Você está em"]');
      expect(textsOf(trail, 'a')).toEqual(['Início', 'Produtos', 'Áudio']);
      expect(elements(trail, 'a').map((link) => attribute(link, 'href'))).toEqual([
        '/',
        '/products',
        '/products?categoria=audio',
      ]);
      expect(textsOf(trail, '[aria-current="page"]')).toEqual([HEADPHONES.name]);
      expect(
        elements(trail, 'li[aria-hidden="true"]').filter((item) => item.includes('<svg')),
      ).toHaveLength(3);
    });

    it('says "Sem avaliações" for a product nobody reviewed, and formats big prices', async () => {
      const html = await productHtml(MONITOR.id);
      expect(textsOf(detailsOf(html), '.product-price')).toEqual(['R$ 1.234,56']);
      expect(visibleText(bodyOf(html))).toContain('Sem avaliações');
      expect(visibleText(bodyOf(html))).toContain('Este produto ainda não tem avaliações.');
    });

    it('shows a sold-out product as "Esgotado" without buy or add buttons', async () => {
      const html = await productHtml(SMARTWATCH.id);
      const body = bodyOf(html);
      expect(textsOf(body, '[data-testid="out-of-stock"]')).toEqual([
        expect.stringContaining('Esgotado'),
      ]);
      const buttons = textsOf(body, 'button');
      expect(buttons).not.toContain('Adicionar ao carrinho');
      expect(buttons).not.toContain('Comprar agora');
      expect(quantityFields(body)).toEqual([]);
      expect(productLd(html).offers).toMatchObject({
        availability: 'https://schema.org/OutOfStock',
      });
      // The same page of a product in stock has them.
      const inStock = textsOf(bodyOf(await productHtml(HEADSET.id)), 'button');
      expect(inStock).toEqual(expect.arrayContaining(['Adicionar ao carrinho', 'Comprar agora']));
    });

    it.each([
      ['an unknown id', '5a3b1e00-0000-4000-8000-00000000ffff'],
      ['a malformed id', 'nao-e-um-id'],
    ])('answers 404 "Produto não encontrado" for %s, inside the store', async (_name, id) => {
      const page = await new Visitor(store.server.url).get(`/product/${id}`);
      expect(page.status).toBe(404);
      const body = bodyOf(page.text);
      expect(textsOf(body, 'h1')).toEqual(['Produto não encontrado']);
      const toProducts = elements(body, 'a').filter(
        (link) => visibleText(link) === 'Ver todos os produtos',
      );
      expect(toProducts.map((link) => attribute(link, 'href'))).toEqual(['/products']);
      expect(elements(body, 'a[aria-label="TechStore: início"]')).toHaveLength(1);
      expect(textsOf(page.text, 'title')).toEqual(['Produto não encontrado | TechStore']);
      expect(attribute(element(page.text, 'meta[name="robots"]'), 'content')).toBe(
        'noindex, nofollow',
      );
    });

    it('describes the product for search engines, with a rating only when there are reviews', async () => {
      const html = await productHtml(HEADPHONES.id);
      expect(productLd(html)).toMatchObject({
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
      expect(attribute(element(html, 'link[rel="canonical"]'), 'href')).toBe(HEADPHONES_URL());
      expect(attribute(element(html, 'meta[property="og:type"]'), 'content')).toBe('product');
      expect(attribute(element(html, 'meta[property="og:image"]'), 'content')).toBe(
        `${store.server.url}${ogImagePath(HEADPHONES.imageUrls![0]!)}`,
      );

      const unreviewed = productLd(await productHtml(MONITOR.id));
      expect(unreviewed.offers).toMatchObject({ price: '1234.56' });
      expect(unreviewed).not.toHaveProperty('aggregateRating');
    });

    it('says how many are left only when there are 9 or fewer', async () => {
      for (const [product, stock] of STOCK) {
        const body = bodyOf(await productHtml(product.id));
        const note = textsOf(body, '[data-testid="stock"]');
        if (stock === 1) expect(note).toEqual(['Última unidade']);
        else if (stock <= 9) expect(note).toEqual([`Últimas ${stock} unidades`]);
        else expect(note).toEqual([]);
        expect(visibleText(body)).not.toMatch(/em estoque/);
      }
    });
  });

  describe('with other settings', () => {
    beforeAll(async () => {
      await saveSampleSettings(await adminVisitor(store.server.url), {
        shipping_mode: 'flat_rate',
        free_shipping_threshold_cents: 15000,
        return_window_days: 60,
        enable_reviews: false,
        enable_wishlist: false,
      });
    });

    it('follows the shipping, return window, reviews and wishlist settings', async () => {
      const html = await productHtml(HEADPHONES.id);
      const body = bodyOf(html);
      for (const badge of ['Frete grátis acima de R$ 150,00', '60 dias para troca']) {
        expect(listItemsWith(html, badge)).toHaveLength(1);
      }
      // No rating, no "Sem avaliações", no reviews' heading: nothing that says "avaliação".
      expect(visibleText(body)).not.toMatch(/avalia[cç][aã]o|avalia[cç][oõ]es/i);
      expect(textsOf(body, 'button').filter((text) => text.includes('Favoritar'))).toEqual([]);
      expect(productLd(html)).not.toHaveProperty('aggregateRating');
    });
  });

  describe('with instalments but card payments off', () => {
    it('offers no instalments and no PIX price', async () => {
      const admin = await adminVisitor(store.server.url);
      // The same instalments with card payments on are offered: the setting is what removes them.
      await saveSampleSettings(admin, { max_installments: 12 });
      expect(
        textsOf(detailsOf(await productHtml(HEADPHONES.id)), '[data-testid="installments"]'),
      ).toEqual(['ou 12x de R$ 24,99 sem juros']);

      await saveSampleSettings(admin, { max_installments: 12, enable_credit_card: false });
      const html = await productHtml(HEADPHONES.id);
      expect(textsOf(detailsOf(html), '.product-price')).toEqual(['R$ 299,90']);
      expect(elements(detailsOf(html), '[data-testid="price-offers"]')).toEqual([]);
      expect(visibleText(bodyOf(html))).not.toMatch(/sem juros/);
    });
  });

  // 10% off with PIX, up to 12 instalments.
  describe('with a PIX discount and instalments', () => {
    beforeAll(async () => {
      await saveSampleSettings(await adminVisitor(store.server.url), {
        pix_discount_percent: 10,
        max_installments: 12,
        min_installment_cents: 500,
      });
    });

    it('writes the PIX price and the instalments under the price', async () => {
      // R$ 299,90 − 10% (R$ 29,99) = R$ 269,91.
      const pixCents =
        HEADPHONES.priceCents -
        pixDiscountCents(HEADPHONES.priceCents, { pix_discount_percent: 10 });
      expect(pixCents).toBe(26991);
      const offers = detailsOf(await productHtml(HEADPHONES.id));
      expect(textsOf(offers, '[data-testid="pix-price"]')).toEqual([
        'R$ 269,91 no PIX (10% de desconto)',
      ]);
      // Card and 12 instalments are switched on, and the sandbox takes cards: R$ 299,90 / 12.
      expect(textsOf(offers, '[data-testid="installments"]')).toEqual([
        'ou 12x de R$ 24,99 sem juros',
      ]);
    });

    it.each(Object.entries(VIEWPORTS))(
      'shows the offers right under the price, and the checkout charges the PIX price (%s)',
      async (_name, viewport) => {
        const { page, problems } = await openPage(store.browser, url(HEADPHONES.id), viewport);
        expect(await details(page).getByTestId('pix-price').innerText()).toBe(
          'R$ 269,91 no PIX (10% de desconto)',
        );
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
});
