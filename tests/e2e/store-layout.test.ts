import { randomBytes } from 'node:crypto';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SAMPLE_CATEGORIES, SAMPLE_CATALOGUE } from '~/flows/sample-store';
import { hashSessionToken, sessionCookie } from '~/modules/auth/index.server';
import { adminUsers, sessions } from '~/modules/auth/schema';

import { saveSampleSettings } from '../support/admin';
import { seriousAxeViolations } from '../support/axe';
import { launchBrowser, openPage, VIEWPORTS, waitForHydration } from '../support/browser';
import { sampleProduct } from '../support/sample';
import { startServer, type TestServer } from '../support/server';
import { Visitor } from '../support/visitor';

// One server for the file, with an admin's session for the tests of a closed store; the blocks
// after the first save their settings with it, in the order they run (a server costs seconds of
// CPU to start).
const token = randomBytes(32).toString('hex');
let browser: Browser;
let server: TestServer;
/** The admin's browser over plain HTTP, signed in by the session the store was prepared with. */
let staff: Visitor;
beforeAll(async () => {
  [browser, server] = await Promise.all([
    launchBrowser(),
    startServer({
      prepare: async (db) => {
        const [admin] = await db
          .insert(adminUsers)
          .values({ email: 'ana@loja.com.br', fullName: 'Ana', passwordHash: 'x' })
          .returning();
        await db.insert(sessions).values({
          id: hashSessionToken(token),
          adminUserId: admin!.id,
          expiresAt: new Date(Date.now() + 3_600_000),
        });
      },
    }),
  ]);
  staff = new Visitor(server.url);
  const [name, value] = (await sessionCookie.serialize(token)).split(';')[0]!.split('=');
  staff.cookies.set(name!, value!);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the store layout with default settings', () => {
  it('opens the slide-in menu at 360 px, locks scrolling and closes on Escape and outside clicks', async () => {
    const { page, problems } = await openPage(browser, server.url, VIEWPORTS.mobile);
    const opener = page.getByRole('button', { name: 'Abrir menu' });
    const menu = page.getByRole('dialog', { name: 'Menu' });

    await opener.click();
    await expect.poll(() => menu.isVisible()).toBe(true);
    // It slides in from the left edge.
    await expect.poll(async () => (await menu.boundingBox())?.x).toBe(0);
    expect((await menu.boundingBox())!.width).toBeLessThanOrEqual(320);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe(
      'hidden',
    );
    for (const name of [
      'Contato',
      'Sobre nós',
      'Política de troca e devolução',
      'Política de privacidade',
      'FAQ',
    ]) {
      expect(await menu.getByRole('link', { name, exact: true }).isVisible()).toBe(true);
    }
    // Focus moved into the panel, so the keyboard works there at once.
    expect(
      await page.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null),
    ).toBe(true);

    await page.keyboard.press('Escape');
    await expect.poll(() => menu.isVisible()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Abrir menu',
    );
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe(
      'visible',
    );

    await opener.click();
    await expect.poll(() => menu.isVisible()).toBe(true);
    await page.mouse.click(VIEWPORTS.mobile.width - 10, 400);
    await expect.poll(() => menu.isVisible()).toBe(false);

    await opener.click();
    await menu.getByRole('link', { name: 'Sobre nós' }).click();
    await page.waitForURL(`${server.url}/sobre`);
    await expect.poll(() => menu.isVisible()).toBe(false);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe(
      'visible',
    );
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('opens the menu and follows its links before JavaScript (none at all here)', async () => {
    const context = await browser.newContext({
      viewport: VIEWPORTS.mobile,
      javaScriptEnabled: false,
    });
    const page = await context.newPage();
    await page.goto(server.url);
    const menu = page.getByRole('dialog', { name: 'Menu' });
    expect(await menu.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Abrir menu' }).click();
    await expect.poll(() => menu.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Abrir menu' }).click();
    await menu.getByRole('link', { name: 'FAQ' }).click();
    await page.waitForURL(`${server.url}/faq`);
    await context.close();
  });

  // The sample store's categories that hold a product, as a Brazilian reads them.
  const CATEGORY_NAMES = SAMPLE_CATEGORIES.filter((category) =>
    SAMPLE_CATALOGUE.some((product) => product.categoryId === category.id),
  )
    .map((category) => category.name)
    .sort((a, b) => a.localeCompare(b, 'pt-BR'));

  /** Tabs until the focus is on the link named `name`, as a keyboard user would reach it. */
  async function tabTo(page: Page, name: string): Promise<void> {
    for (let presses = 0; presses < 30; presses++) {
      await page.keyboard.press('Tab');
      if (await page.evaluate((text) => document.activeElement?.textContent === text, name)) return;
    }
    throw new Error(`No Tab reaches ${name}`);
  }

  it('lists the categories in the menu at 360 px, and a keyboard follows one', async () => {
    const { page, problems } = await openPage(browser, server.url, VIEWPORTS.mobile);
    // Phones find the categories in the menu: no bar takes the screen.
    expect(await page.getByTestId('category-bar').isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Abrir menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await expect.poll(() => menu.isVisible()).toBe(true);
    const listed = menu.getByRole('list', { name: 'Categorias' });
    expect(await listed.getByRole('link').allInnerTexts()).toEqual(CATEGORY_NAMES);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await tabTo(page, 'Áudio');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/products?categoria=audio`);
    await expect.poll(() => menu.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Abrir menu' }).click();
    expect(await listed.getByRole('link', { name: 'Áudio' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('shows the categories in a bar under the header on a desktop, reachable by keyboard', async () => {
    const { page, problems } = await openPage(browser, server.url, VIEWPORTS.desktop);
    const bar = page.getByRole('navigation', { name: 'Navegar por categoria' });
    expect(await bar.isVisible()).toBe(true);
    expect(await bar.getByRole('link').allInnerTexts()).toEqual(CATEGORY_NAMES);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await tabTo(page, 'Informática');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/products?categoria=informatica`);
    await expect
      .poll(() => bar.getByRole('link', { name: 'Informática' }).getAttribute('aria-current'))
      .toBe('page');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it.each(Object.entries(VIEWPORTS))(
    'keeps the checkout to its own header: the way back to the cart, the logo, Compra segura (%s)',
    async (name, viewport) => {
      const context = await browser.newContext({ viewport, locale: 'pt-BR' });
      const page = await context.newPage();
      await page.request.post(`${server.url}/cart`, {
        form: { intent: 'add', productId: sampleProduct('Mouse').id, quantity: '1' },
      });
      await page.goto(`${server.url}/checkout`, { waitUntil: 'networkidle' });
      await waitForHydration(page);

      const header = page.getByTestId('checkout-header');
      expect(await header.getByText('Compra segura').isVisible()).toBe(true);
      expect(await header.getByRole('link', { name: 'TechStore: início' }).isVisible()).toBe(true);
      // Nothing to wander off through while paying: no menu, search or cart badge.
      expect(await page.getByRole('button', { name: 'Abrir menu' }).count()).toBe(0);
      expect(await page.getByRole('searchbox').count()).toBe(0);
      expect(await page.getByRole('link', { name: /^Carrinho, / }).count()).toBe(0);
      expect(await page.getByTestId('category-bar').count()).toBe(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      expect(await seriousAxeViolations(page)).toEqual([]);

      const back = header.getByRole('link', {
        name: name === 'mobile' ? 'Carrinho' : 'Voltar ao carrinho',
        exact: true,
      });
      await back.click();
      await page.waitForURL(`${server.url}/cart`);
      // The whole header again, once the cart page has rendered (the address changes first).
      await page.getByRole('button', { name: 'Abrir menu' }).waitFor();
      expect(await page.getByRole('button', { name: 'Abrir menu' }).count()).toBe(1);
      await context.close();
    },
  );

  it('answers an unknown path with a 404 page in the store look, with a way back', async () => {
    const response = await fetch(`${server.url}/nao-existe/mesmo`);
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain('Página não encontrada');
    expect(html).toContain('TechStore: início');
    expect(html).toContain('href="/products"');
    expect(html).toContain('noindex');
  });

  it('shows no cookie banner without tracking, and the sample store’s contacts in the footer', async () => {
    const html = await (await fetch(server.url)).text();
    expect(html).not.toContain('Consentimento de cookies');
    // A store with no channel at all leaves the block out (storefront-shell.test.ts).
    expect(html).toContain('id="footer-contact"');
  });

  it('refuses a malformed preference with 400 and never redirects off-site', async () => {
    const bad = await fetch(`${server.url}/preferences`, {
      method: 'POST',
      body: new URLSearchParams({ intent: 'consent', consent: 'talvez' }),
      redirect: 'manual',
    });
    expect(bad.status).toBe(400);
    const offsite = await fetch(`${server.url}/preferences`, {
      method: 'POST',
      body: new URLSearchParams({
        intent: 'consent',
        consent: 'denied',
        redirectTo: '//evil.example',
      }),
      redirect: 'manual',
    });
    expect(offsite.status).toBe(200);
    expect(offsite.headers.get('location')).toBeNull();
    expect(offsite.headers.get('set-cookie')).toContain('vitrine_consent=');
  });
});

describe('tracking behind the cookie banner', () => {
  beforeAll(async () => {
    await saveSampleSettings(staff, {
      facebook_pixel_id: '123456789012345',
      google_ads_conversion_id: 'AW-123456789',
      google_ads_conversion_label: 'AbC-D_efG',
      custom_head_scripts: '<script>window.customHeadRan = true;</script>',
    });
  });

  /** Serves the vendors' files from the test instead of the internet, and counts the requests. */
  async function fakeVendors(page: Page) {
    const requested: string[] = [];
    await page
      .context()
      .route(/^https:\/\/(connect\.facebook\.net|www\.googletagmanager\.com)\//, (route) => {
        requested.push(route.request().url());
        return route.fulfill({
          contentType: 'text/javascript',
          body: 'window.vendorFileRan = true;',
        });
      });
    return requested;
  }

  it("sends no tracking code or pixel id in a page's HTML or data before the shopper accepts", async () => {
    // The page's data carries the storefront's share of the settings only (STOREFRONT_SETTING_KEYS).
    const home = await new Visitor(server.url).get('/');
    expect(home.status).toBe(200);
    expect(home.text).toContain('Consentimento de cookies');
    expect(home.text).not.toContain('customHeadRan');
    expect(home.text).not.toContain('123456789012345');
  });

  it('loads nothing before the shopper accepts, everything after, and reports AddToCart from a card', async () => {
    const { page, problems } = await openPage(browser, 'about:blank');
    const requested = await fakeVendors(page);
    await page.goto(server.url, { waitUntil: 'networkidle' });

    const banner = page.getByRole('region', { name: 'Consentimento de cookies' });
    expect(await banner.isVisible()).toBe(true);
    expect(requested).toEqual([]);
    expect(await page.evaluate(() => typeof (window as { fbq?: unknown }).fbq)).toBe('undefined');
    expect(await page.evaluate(() => 'customHeadRan' in window)).toBe(false);

    await banner.getByRole('button', { name: 'Aceitar cookies' }).click();
    await page.waitForLoadState('networkidle');
    await expect.poll(() => page.evaluate(() => 'customHeadRan' in window)).toBe(true);
    expect(await banner.count()).toBe(0);
    expect(requested.some((url) => url.includes('fbevents.js'))).toBe(true);
    expect(requested.some((url) => url.includes('gtag/js?id=AW-123456789'))).toBe(true);

    const card = page.getByTestId('product-card').filter({ hasText: 'Mouse' }).first();
    await card.getByRole('button', { name: 'Adicionar ao carrinho' }).click();
    await expect.poll(() => page.getByTestId('cart-count').textContent()).toBe('1');
    const events = () =>
      page.evaluate(() => {
        const w = window as unknown as { fbq: { queue: unknown[][] }; dataLayer: unknown[][] };
        return {
          pixel: w.fbq.queue.map((args) => [...args][1]),
          gtag: w.dataLayer.map((args) => [...(args as unknown[])]),
        };
      });
    // Reported once the cart has answered.
    await expect.poll(async () => (await events()).pixel).toContain('AddToCart');
    expect((await events()).gtag).toContainEqual([
      'event',
      'conversion',
      expect.objectContaining({ send_to: 'AW-123456789/AbC-D_efG', currency: 'BRL' }),
    ]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('remembers a refusal, and the privacy page can change it', async () => {
    const { page } = await openPage(browser, 'about:blank');
    const requested = await fakeVendors(page);
    await page.goto(server.url, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Recusar' }).click();
    await page.waitForLoadState('networkidle');
    await page.reload({ waitUntil: 'networkidle' });
    expect(await page.getByRole('region', { name: 'Consentimento de cookies' }).count()).toBe(0);
    expect(requested).toEqual([]);

    await page.goto(`${server.url}/politicaprivacidade`, { waitUntil: 'networkidle' });
    const preferences = page.getByRole('region', { name: 'Preferências de cookies' });
    expect(await preferences.innerText()).toContain('Você recusou');
    await preferences.getByRole('button', { name: 'Aceitar cookies' }).click();
    await page.waitForURL(`${server.url}/politicaprivacidade`);
    await page.waitForLoadState('networkidle');
    expect(await preferences.innerText()).toContain('Você aceitou');
    expect(requested.some((url) => url.includes('fbevents.js'))).toBe(true);
    await page.context().close();
  });
});

describe('store switches', () => {
  beforeAll(async () => {
    await saveSampleSettings(staff, {
      maintenance_mode: true,
      enable_chat: true,
      contact_whatsapp: '5511987654321',
      enable_dark_mode: true,
      enable_reviews: false,
    });
  });

  it('closes the store with a 503 maintenance page, except for a signed-in admin', async () => {
    for (const path of ['/', '/products', '/cart']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('600');
      const html = await response.text();
      expect(html).toContain('está em manutenção');
      expect(html).not.toContain('data-testid="product-card"');
    }
    const cookie = (await sessionCookie.serialize(token)).split(';')[0]!;
    const asAdmin = await fetch(server.url, { headers: { cookie } });
    expect(asAdmin.status).toBe(200);
    const html = await asAdmin.text();
    expect(html).toContain('Modo de manutenção ativo');
    expect(html).toContain('data-testid="product-card"');
    // enable_reviews is off in this store: no ratings on the cards.
    expect(html).not.toContain('Avaliação');

    const expired = (await sessionCookie.serialize(randomBytes(32).toString('hex'))).split(';')[0]!;
    expect((await fetch(server.url, { headers: { cookie: expired } })).status).toBe(503);
  });

  it('offers WhatsApp chat and a remembered dark scheme', async () => {
    const { page, problems } = await openPage(browser, 'about:blank', VIEWPORTS.mobile);
    const [name, value] = (await sessionCookie.serialize(token)).split(';')[0]!.split('=');
    await page.context().addCookies([{ name: name!, value: value!, url: server.url }]);
    await page.goto(server.url, { waitUntil: 'networkidle' });

    const chat = page.getByRole('link', { name: 'Fale conosco pelo WhatsApp' });
    expect(await chat.getAttribute('href')).toBe('https://wa.me/5511987654321');

    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(await background()).toBe('rgb(255, 255, 255)');
    // The choice is saved in the background; wait for it before reloading.
    const saved = page.waitForResponse((response) => response.url().includes('_root.data'));
    await page.getByRole('button', { name: 'Tema escuro' }).click();
    await expect.poll(background).toBe('rgb(15, 23, 42)');
    await saved;
    await page.reload({ waitUntil: 'networkidle' });
    expect(await background()).toBe('rgb(15, 23, 42)');
    expect(
      await page.getByRole('button', { name: 'Tema escuro' }).getAttribute('aria-pressed'),
    ).toBe('true');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
