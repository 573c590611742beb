import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';

import { SAMPLE_CATEGORIES, SAMPLE_PRODUCTS } from '~/flows/sample-store';

import { firstAdminVisitor, saveSampleSettings } from '../support/admin';
import { seriousAxeViolations } from '../support/axe';
import { openPage, VIEWPORTS, waitForHydration } from '../support/browser';
import { useStoreAndBrowser } from '../support/fixtures';
import { element, elements, textsOf } from '../support/html';
import { publicFileSrc, sampleProduct } from '../support/sample';
import { Visitor, visibleText } from '../support/visitor';

const HEADPHONES = sampleProduct('Fone de Ouvido');
const MOUSE = sampleProduct('Mouse');
const SMARTWATCH = sampleProduct('Smartwatch');
const BANNER = '/sample/monitor-27-full-hd-1.svg';
const WIDTHS = Object.entries(VIEWPORTS);

/** The year in São Paulo now, as the server puts it in the footer. */
function yearInSaoPaulo(): string {
  return new Intl.DateTimeFormat('en', { year: 'numeric', timeZone: 'America/Sao_Paulo' }).format(
    new Date(),
  );
}

const header = (page: Page) => page.getByTestId('store-header');
const footer = (page: Page) => page.getByRole('contentinfo');
const cards = (page: Page) => page.getByTestId('product-card');
const card = (page: Page, name: string) =>
  cards(page).filter({ has: page.getByRole('heading', { name }) });

/**
 * Where each card's layout box is on the page (not on the screen, which scrolls; and without the
 * theme's hover zoom, a transform that moves nothing around it).
 */
/** Keeps the cart toast open: it does not close by itself while the pointer is in it. */
async function holdToast(toast: Locator): Promise<void> {
  await toast.locator('> div').hover();
}

function cardBoxes(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[data-testid="product-card"]')].map((card) => {
      const cell = card.parentElement!.getBoundingClientRect();
      return {
        x: cell.x,
        y: cell.y + window.scrollY,
        width: card.offsetWidth,
        height: card.offsetHeight,
      };
    }),
  );
}

describe('the storefront shell of the sample store (banner, PIX discount, instalments)', () => {
  const store = useStoreAndBrowser({
    settings: { banner_url: BANNER, pix_discount_percent: 5, max_installments: 12 },
  });

  it.each(WIDTHS)(
    'says who the store is in the footer: legal name, CNPJ, address, contact, payments, © (%s)',
    async (_name, viewport) => {
      const { page, problems } = await openPage(store.browser, store.server.url, viewport);
      const identity = footer(page).getByTestId('footer-identity');
      expect(await identity.innerText()).toContain('TechStore Comércio de Eletrônicos Ltda.');
      expect(await identity.innerText()).toContain('CNPJ 12.345.678/0001-95');
      expect(await footer(page).locator('address').innerText()).toBe(
        'Av. Paulista, 1000, sala 101, Bela Vista, São Paulo - SP, 01310-100',
      );
      expect(
        await footer(page)
          .getByRole('link', { name: 'atendimento@techstore.com.br' })
          .getAttribute('href'),
      ).toBe('mailto:atendimento@techstore.com.br');
      // Everything but PayPal is switched on by default; the sandbox takes no debit card.
      expect(
        await footer(page).getByTestId('footer-payments').getByRole('listitem').allInnerTexts(),
      ).toEqual(['PIX', 'Cartão de crédito', 'Boleto']);
      const socials = footer(page).getByRole('list', { name: 'Redes sociais' });
      expect(await socials.getByRole('link', { name: 'Instagram' }).getAttribute('href')).toBe(
        'https://www.instagram.com/techstore',
      );
      expect(await socials.getByRole('link', { name: 'Facebook' }).getAttribute('href')).toBe(
        'https://www.facebook.com/techstore',
      );
      expect(await footer(page).getByTestId('footer-copyright').innerText()).toBe(
        `© ${yearInSaoPaulo()} TechStore Comércio de Eletrônicos Ltda. Todos os direitos reservados.`,
      );
      expect(problems).toEqual([]);
      await page.context().close();
    },
  );

  it.each(WIDTHS)(
    'keeps the header on screen after scrolling to the bottom (%s)',
    async (name, viewport) => {
      const { page, problems } = await openPage(store.browser, store.server.url, viewport);
      const before = (await header(page).boundingBox())!;
      // Compact on phones: one row of 44 px controls.
      if (name === 'mobile') expect(before.height).toBeLessThanOrEqual(56);
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
      const after = (await header(page).boundingBox())!;
      expect(Math.abs(after.y)).toBeLessThanOrEqual(1);
      expect(after.height).toBeCloseTo(before.height, 0);
      expect(
        await header(page)
          .getByRole('link', { name: /^Carrinho/ })
          .isVisible(),
      ).toBe(true);
      // What is under the header's middle is the header itself, not the page.
      const onTop = await page.evaluate(
        ([x, y]) =>
          document.elementFromPoint(x!, y!)?.closest('[data-testid="store-header"]') !== null,
        [viewport.width / 2, after.height / 2],
      );
      expect(onTop).toBe(true);
      expect(problems).toEqual([]);
      await page.context().close();
    },
  );

  it('searches from the header icon on a phone', async () => {
    const { page, problems } = await openPage(store.browser, store.server.url, VIEWPORTS.mobile);
    const field = page.getByRole('searchbox', { name: 'Buscar produtos' });
    expect(await field.isVisible()).toBe(false);
    await page.getByTestId('phone-search-toggle').click();
    await expect.poll(() => field.isVisible()).toBe(true);
    await expect.poll(() => field.evaluate((input) => input === document.activeElement)).toBe(true);
    expect(await field.getAttribute('placeholder')).toBe('Buscar produtos');
    await page.keyboard.press('Escape');
    await expect.poll(() => field.isVisible()).toBe(false);
    await page.getByTestId('phone-search-toggle').click();
    await expect.poll(() => field.isVisible()).toBe(true);
    await field.fill('fone');
    await field.press('Enter');
    await page.waitForURL(`${store.server.url}/products?q=fone`);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  // Each part of the page hydrates on its own (ADR 023), possibly after the shopper has used it.
  it.each([
    ['the phone search', '/', '[data-testid="phone-search-toggle"]', '#phone-search'],
    ['the menu', '/', 'button[aria-label="Abrir menu"]', '#store-menu'],
    ['the filter sheet', '/products', '[data-testid="catalog-filters-button"]', '#catalog-filters'],
  ])(
    'keeps %s open when the shopper opened it before the scripts ran',
    async (_name, path, opener, opened) => {
      const context = await store.browser.newContext({
        viewport: VIEWPORTS.mobile,
        locale: 'pt-BR',
      });
      const page = await context.newPage();
      // The scripts wait until the shopper has tapped, as on a slow phone.
      let release!: () => void;
      const tapped = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/*.js', async (route) => {
        await tapped;
        await route.continue();
      });
      await page.goto(`${store.server.url}${path}`, { waitUntil: 'load' });
      const panel = page.locator(opened);
      await page.locator(opener).click();
      await expect.poll(() => panel.isVisible()).toBe(true);
      release();
      await waitForHydration(page);
      // A frame for anything hydration would still do to it.
      await page.evaluate(
        () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
      );
      expect(await panel.isVisible()).toBe(true);
      await context.close();
    },
  );

  it('searches from the field in the header on a desktop', async () => {
    const { page, problems } = await openPage(store.browser, store.server.url, VIEWPORTS.desktop);
    expect(await page.getByTestId('phone-search-toggle').isVisible()).toBe(false);
    const field = page.getByRole('searchbox', { name: 'Buscar produtos' });
    expect(await field.isVisible()).toBe(true);
    await field.fill('mouse sem fio');
    await page.getByRole('button', { name: 'Pesquisar' }).click();
    await page.waitForURL(`${store.server.url}/products?q=mouse+sem+fio`);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('searches without JavaScript too (GET /products?q=…)', async () => {
    const context = await store.browser.newContext({
      viewport: VIEWPORTS.mobile,
      javaScriptEnabled: false,
    });
    const page = await context.newPage();
    await page.goto(store.server.url);
    await page.getByTestId('phone-search-toggle').click();
    await page.getByRole('searchbox', { name: 'Buscar produtos' }).fill('teclado');
    await page.getByRole('searchbox', { name: 'Buscar produtos' }).press('Enter');
    await page.waitForURL(`${store.server.url}/products?q=teclado`);
    await context.close();
  });

  it.each(WIDTHS)(
    'adds from a card with a toast that moves nothing: Ver carrinho, Finalizar compra, Escape (%s)',
    async (_name, viewport) => {
      const { page, problems } = await openPage(store.browser, store.server.url, viewport);
      const before = await cardBoxes(page);
      expect(before).toHaveLength(8);
      await card(page, MOUSE.name)
        .getByRole('button', { name: /Adicionar ao carrinho/ })
        .click();
      const toast = page.getByTestId('card-feedback');
      await toast.getByRole('link', { name: 'Ver carrinho' }).waitFor();
      // The pointer in it holds it open (it closes by itself after 6 s, which a busy machine can
      // spend on the reads below).
      await holdToast(toast);
      expect(await toast.getAttribute('role')).toBe('status');
      expect(await toast.innerText()).toContain(MOUSE.name);
      expect(await toast.getByRole('link', { name: 'Ver carrinho' }).getAttribute('href')).toBe(
        '/cart',
      );
      expect(await toast.getByRole('link', { name: 'Finalizar compra' }).getAttribute('href')).toBe(
        '/checkout',
      );
      await expect.poll(() => page.getByTestId('cart-count').textContent()).toBe('1');
      // Fixed on the screen: every card is where it was.
      expect(await cardBoxes(page)).toEqual(before);
      expect(
        await toast
          .locator('> div')
          .evaluate((panel) => getComputedStyle(panel.parentElement!).position),
      ).toBe('fixed');

      await page.keyboard.press('Escape');
      await expect.poll(() => toast.getByRole('link').count()).toBe(0);

      await card(page, HEADPHONES.name)
        .getByRole('button', { name: /Adicionar ao carrinho/ })
        .click();
      await expect.poll(() => toast.innerText()).toContain(HEADPHONES.name);
      await holdToast(toast);
      await expect.poll(() => page.getByTestId('cart-count').textContent()).toBe('2');
      await toast.getByRole('button', { name: 'Fechar aviso' }).click();
      await expect.poll(() => toast.getByRole('link').count()).toBe(0);
      expect(problems).toEqual([]);
      await page.context().close();
    },
  );

  it('closes the toast by itself after a few seconds, and its link goes to the cart', async () => {
    const { page, problems } = await openPage(store.browser, store.server.url, VIEWPORTS.mobile);
    // The page's clock stands still from here: its timers run only when the test says.
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 1_000);
    const toast = page.getByTestId('card-feedback');
    await card(page, MOUSE.name)
      .getByRole('button', { name: /Adicionar ao carrinho/ })
      .click();
    await toast.getByRole('link', { name: 'Ver carrinho' }).waitFor();
    await page.clock.runFor(6_000);
    await expect.poll(() => toast.getByRole('link').count()).toBe(0);

    await card(page, MOUSE.name)
      .getByRole('button', { name: /Adicionar ao carrinho/ })
      .click();
    // Not while the shopper is in it (focus here; the pointer works the same way).
    await toast.getByRole('link', { name: 'Finalizar compra' }).focus();
    await page.clock.runFor(7_000);
    expect(await toast.getByRole('link').count()).toBe(2);
    await toast.getByRole('link', { name: 'Ver carrinho' }).click();
    await page.waitForURL(`${store.server.url}/cart`);
    await expect.poll(() => page.getByTestId('card-feedback').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('shows an error from the cart in the toast', async () => {
    const { page, problems } = await openPage(store.browser, store.server.url, VIEWPORTS.desktop);
    // As if the product had been deleted since the page was loaded.
    const mouse = card(page, MOUSE.name);
    await mouse
      .locator('input[name="productId"]')
      .evaluate(
        (input: HTMLInputElement) => (input.value = '00000000-0000-4000-8000-000000000000'),
      );
    await mouse.getByRole('button', { name: /Adicionar ao carrinho/ }).click();
    const toast = page.getByTestId('card-feedback');
    await expect.poll(() => toast.getByTestId('cart-toast-message').count()).toBe(1);
    expect(await toast.getByTestId('cart-toast-message').innerText()).not.toBe('');
    expect(await toast.getByRole('link').count()).toBe(0);
    expect(await page.getByTestId('cart-count').count()).toBe(0);
    // The refusal itself is the 4xx answer to that POST.
    expect(
      problems.filter(
        (problem) => !/HTTP 4\d\d: .*\/cart/.test(problem) && !problem.includes('status of 404'),
      ),
    ).toEqual([]);
    await page.context().close();
  });

  it('fits two cards to a row at 360 px: whole image, names to three lines, a one-line button, sold-out in shape', async () => {
    const { page, problems } = await openPage(store.browser, store.server.url, VIEWPORTS.mobile);
    const layout = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('[data-testid="product-card"]')].map((card) => {
        const box = card.getBoundingClientRect();
        const image = card.querySelector('img')!.getBoundingClientRect();
        const title = card.querySelector('h3')!;
        const lineHeight = parseFloat(getComputedStyle(title).lineHeight);
        const button = card.querySelector<HTMLElement>('[data-testid="card-add"]');
        const label = button?.querySelector('span:not(.sr-only)');
        return {
          name: title.innerText,
          title: title.querySelector('a')!.title,
          cut: title.scrollHeight > title.clientHeight,
          top: Math.round(box.top),
          height: Math.round(box.height),
          width: box.width,
          imageWidth: image.width,
          inner: box.width - 2 * parseFloat(getComputedStyle(card).paddingLeft) - 2,
          titleLines: Math.round(title.getBoundingClientRect().height / lineHeight),
          clamp: getComputedStyle(title).webkitLineClamp,
          buttonLines: label
            ? Math.round(
                label.getBoundingClientRect().height /
                  parseFloat(getComputedStyle(label).lineHeight),
              )
            : null,
          buttonOverflows: button ? button.scrollWidth > button.clientWidth : null,
          buttonHeight: button?.getBoundingClientRect().height ?? null,
          placeholder: card.querySelector('[data-testid="card-sold-out"]')?.getBoundingClientRect()
            .height,
        };
      }),
    );
    expect(layout).toHaveLength(8);
    for (const entry of layout) {
      expect(entry.width, entry.name).toBeLessThan(180);
      expect(entry.imageWidth, entry.name).toBeGreaterThanOrEqual(entry.inner - 1);
      expect(entry.clamp, entry.name).toBe('3');
      expect(entry.titleLines, entry.name).toBeLessThanOrEqual(3);
      // The whole name on hover, as the link's text is for screen readers.
      expect(entry.title).toBe(entry.name);
    }
    // The sample store's longest names ('Caixa de Som Portátil à Prova d'Água') fit whole.
    expect(layout.filter((entry) => entry.cut).map((entry) => entry.name)).toEqual([]);
    const buttons = layout.filter((entry) => entry.buttonLines !== null);
    expect(buttons).toHaveLength(7);
    for (const entry of buttons) {
      expect(entry.buttonLines, entry.name).toBe(1);
      expect(entry.buttonOverflows, entry.name).toBe(false);
      expect(entry.buttonHeight, entry.name).toBeLessThanOrEqual(48);
    }
    const soldOut = layout.find((entry) => entry.name === SMARTWATCH.name)!;
    const neighbour = layout.find((entry) => entry.top === soldOut.top && entry !== soldOut)!;
    expect(soldOut.height).toBe(neighbour.height);
    expect(soldOut.placeholder).toBe(buttons[0]!.buttonHeight);
    const soldOutCard = card(page, SMARTWATCH.name);
    expect(await soldOutCard.getByRole('button').count()).toBe(0);
    expect(await soldOutCard.getByTestId('card-sold-out').innerText()).toBe('Esgotado');
    // The offers under the price, from the store's settings.
    expect(await card(page, HEADPHONES.name).getByTestId('pix-price').innerText()).toContain(
      'no PIX',
    );
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it.each(WIDTHS)(
    'shows the banner behind the hero with one call to action, and home passes axe (%s)',
    async (_name, viewport) => {
      const { page, problems } = await openPage(store.browser, store.server.url, viewport);
      const hero = page.getByTestId('hero');
      const banner = hero.getByTestId('hero-banner');
      expect(await banner.getAttribute('src')).toMatch(publicFileSrc(BANNER));
      expect(
        await banner.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
      ).toBe(true);
      expect(await hero.getByRole('link').count()).toBe(1);
      const cta = hero.getByRole('link', { name: 'Ver produtos' });
      expect(await cta.getAttribute('href')).toBe('/products');
      const colours = await cta.evaluate((link) => {
        const style = getComputedStyle(link);
        return { background: style.backgroundColor, color: style.color };
      });
      expect(colours.background).toBe('rgb(255, 255, 255)');
      expect(colours.color).not.toBe('rgb(255, 255, 255)');
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
      await page.context().close();
    },
  );

  it('links the category pills by slug, and still takes an old id link', async () => {
    const audio = SAMPLE_CATEGORIES.find((category) => category.name === 'Áudio')!;
    const { page, problems } = await openPage(store.browser, store.server.url);
    const nav = page.getByRole('navigation', { name: 'Categorias' });
    expect(await nav.getByRole('link', { name: 'Áudio' }).getAttribute('href')).toBe(
      '/?categoria=audio#destaques',
    );
    await nav.getByRole('link', { name: 'Áudio' }).click();
    await page.waitForURL(`${store.server.url}/?categoria=audio#destaques`);
    await expect
      .poll(() => nav.getByRole('link', { name: 'Áudio' }).getAttribute('aria-current'))
      .toBe('page');
    const names = await cards(page).locator('h3').allInnerTexts();
    const audioProducts = SAMPLE_PRODUCTS.filter((product) => product.categoryId === audio.id);
    expect(names.toSorted()).toEqual(audioProducts.map((product) => product.name).toSorted());
    expect(
      await page.getByRole('link', { name: 'Ver todos os produtos' }).getAttribute('href'),
    ).toBe('/products?categoria=audio');
    const byId = await (await fetch(`${store.server.url}/?categoria=${audio.id}`)).text();
    expect(byId).toMatch(/<a[^>]*aria-current="page"[^>]*>Áudio<\/a>/);
    expect(byId.match(/data-testid="product-card"/g)).toHaveLength(names.length);
    const html = await (await fetch(`${store.server.url}/?categoria=audio`)).text();
    expect(html.match(/data-testid="product-card"/g)).toHaveLength(names.length);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  describe('favourites', () => {
    it.each(WIDTHS)(
      'lists the hearted products, removes them, and shows the empty state, accessible (%s)',
      async (_name, viewport) => {
        const { page, problems } = await openPage(
          store.browser,
          `${store.server.url}/favoritos`,
          viewport,
        );
        const empty = page.getByTestId('favorites-empty');
        await empty.waitFor();
        expect(await empty.innerText()).toContain('Você ainda não tem favoritos.');
        expect(await empty.getByRole('link', { name: 'Ver produtos' }).getAttribute('href')).toBe(
          '/products',
        );
        expect(await seriousAxeViolations(page)).toEqual([]);

        // A heart on the product page, then the header's link.
        await page.goto(`${store.server.url}/product/${HEADPHONES.id}`, {
          waitUntil: 'networkidle',
        });
        await page.getByTestId('wishlist-button').click();
        await expect
          .poll(() => page.getByTestId('wishlist-button').getAttribute('aria-pressed'))
          .toBe('true');
        await page.evaluate(
          ([mouse]) => {
            const ids = JSON.parse(localStorage.getItem('vitrine:wishlist') ?? '[]') as string[];
            localStorage.setItem('vitrine:wishlist', JSON.stringify([mouse, 'nao-e-id', ...ids]));
          },
          [MOUSE.id],
        );
        await header(page).getByRole('link', { name: 'Favoritos' }).click();
        await page.waitForURL(`${store.server.url}/favoritos`);
        const list = page.getByTestId('favorites-list');
        await expect.poll(() => list.getByTestId('product-card').count()).toBe(2);
        expect(await list.locator('h3').allInnerTexts()).toEqual([MOUSE.name, HEADPHONES.name]);
        expect(await seriousAxeViolations(page)).toEqual([]);

        await list.getByRole('button', { name: `Remover ${MOUSE.name} dos favoritos` }).click();
        await expect.poll(() => list.getByTestId('product-card').count()).toBe(1);
        await page.reload({ waitUntil: 'networkidle' });
        await expect.poll(() => list.locator('h3').allInnerTexts()).toEqual([HEADPHONES.name]);
        await list
          .getByRole('button', { name: `Remover ${HEADPHONES.name} dos favoritos` })
          .click();
        await empty.waitFor();
        expect(problems).toEqual([]);
        await page.context().close();
      },
    );

    it('says without JavaScript that the favourites live in this browser', async () => {
      // (Chromium run by Playwright with JavaScript off still hides <noscript>, so read the HTML.)
      const response = await fetch(`${store.server.url}/favoritos`);
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain('<h1 class="mb-6 text-2xl sm:text-3xl">Favoritos</h1>');
      expect(html).toMatch(
        /<noscript>.*Seus favoritos ficam guardados neste navegador e precisam de JavaScript.*<\/noscript>/,
      );
      expect(html).toContain('name="robots" content="noindex, nofollow"');
    });

    it.each([
      '?ids=',
      '?ids=%2C%2C%2C',
      `?ids=${'x,'.repeat(500)}`,
      `?ids=${HEADPHONES.id}'%3B--`,
      '?ids=00000000-0000-4000-8000-000000000000',
      '?ids[]=1&ids=2',
    ])('answers a bad list of ids with a page, never an error (%#)', async (query) => {
      const response = await fetch(`${store.server.url}/favoritos${query}`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('Favoritos');
    });
  });

  // The same server, its settings saved through the admin (a server costs seconds of CPU to
  // start); what it shows is the server's HTML, read over HTTP.
  describe('with other choices (no card, PayPal, no contacts, no wishlist)', () => {
    beforeAll(async () => {
      await saveSampleSettings(await firstAdminVisitor(store.server), {
        enable_credit_card: false,
        enable_paypal: true,
        legal_name: '',
        cnpj: '',
        contact_email: '',
        contact_phone: '',
        contact_whatsapp: '',
        contact_address: '',
        instagram_url: '',
        facebook_url: '',
        enable_wishlist: false,
        footer_text: 'Loja de demonstração.',
      });
    });

    it('lists only the payments checkout takes, and falls back to the store name', async () => {
      const visitor = new Visitor(store.server.url);
      const home = await visitor.get('/');
      expect(home.status).toBe(200);
      const foot = element(home.text, 'footer');
      // PayPal switched on promises nothing: the provider takes PIX, cards and boleto only.
      expect(textsOf(element(foot, '[data-testid="footer-payments"]'), 'li')).toEqual([
        'PIX',
        'Boleto',
      ]);
      expect(elements(foot, '[id="footer-contact"]')).toEqual([]);
      expect(textsOf(foot, '[data-testid="footer-identity"]')).toEqual(['']);
      expect(visibleText(foot)).toContain('Loja de demonstração.');
      expect(textsOf(foot, '[data-testid="footer-copyright"]')).toEqual([
        `© ${yearInSaoPaulo()} TechStore. Todos os direitos reservados.`,
      ]);
      // No banner: the store's colour, and the same single call to action.
      expect(elements(home.text, '[data-testid="hero-banner"]')).toEqual([]);
      expect(elements(element(home.text, '[data-testid="hero"]'), 'a')).toHaveLength(1);
      // No wishlist: no header link, and no page.
      expect(
        elements(element(home.text, '[data-testid="store-header"]'), 'a[aria-label="Favoritos"]'),
      ).toEqual([]);
      expect((await visitor.get('/favoritos')).status).toBe(404);
    });
  });
});
