import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { firstAdminVisitor, saveSampleSettings } from '../support/admin';
import { launchBrowser, openPage, VIEWPORTS } from '../support/browser';
import { seriousAxeViolations } from '../support/axe';
import { elements } from '../support/html';
import { publicFileSrc } from '../support/sample';
import { startServer, type TestServer } from '../support/server';
import { Visitor, visibleText } from '../support/visitor';

const PAGES = [
  ['/sobre', 'Sobre nós'],
  ['/politicadevolucao', 'Política de troca e devolução'],
  ['/politicaprivacidade', 'Política de privacidade'],
  ['/faq', 'Perguntas frequentes'],
  ['/contato', 'Contato'],
] as const;

// One server for the file: the blocks after the first save their settings through the admin, in
// the order they run (a server costs seconds of CPU to start).
let browser: Browser;
let server: TestServer;
let staff: Visitor;
beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startServer()]);
  staff = await firstAdminVisitor(server);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('content pages with the default texts', () => {
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    it.each(PAGES)(`%s answers with its title, accessible (${name})`, async (path, title) => {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status).toBe(200);
      await response.body?.cancel();

      const { page, problems } = await openPage(browser, `${server.url}${path}`, viewport);
      await expect(page.title()).resolves.toBe(`${title} | TechStore`);
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(title);
      expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(
        `${server.url}${path}`,
      );
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
      await page.context().close();
    });
  }

  it('states the default 30-day window and the legal 7-day regret right', async () => {
    const { page } = await openPage(browser, `${server.url}/politicadevolucao`);
    const text = await page.locator('article').innerText();
    expect(text).toContain('30 dias corridos');
    expect(text).toContain('art. 49');
    expect(text).not.toContain('60 dias');
    await page.context().close();
  });

  it('opens FAQ answers from the keyboard, in three sections', async () => {
    const { page, problems } = await openPage(browser, `${server.url}/faq`);
    expect(await page.getByRole('heading', { level: 2 }).allInnerTexts()).toEqual(
      expect.arrayContaining(['Produtos', 'Compra e pagamento', 'Envio, entrega e devoluções']),
    );
    const question = page.locator('summary', { hasText: 'Quanto custa o frete?' });
    const answer = page.getByText('Frete grátis para todo o Brasil, sem valor mínimo de compra.');
    expect(await answer.isVisible()).toBe(false);
    await question.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => answer.isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('offers the cookie preferences on the privacy page, and they work', async () => {
    const { page, problems } = await openPage(browser, `${server.url}/politicaprivacidade`);
    const preferences = page.getByRole('region', { name: 'Preferências de cookies' });
    expect(await preferences.isVisible()).toBe(true);
    await Promise.all([
      page.waitForEvent('load'),
      preferences.getByRole('button', { name: 'Recusar' }).click(),
    ]);
    await expect
      .poll(() => preferences.getByRole('status').innerText())
      .toBe('Você recusou os cookies de análise e publicidade.');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it.each(['/nao-existe', '/sobre/mais', '/faq/x/y'])(
    'answers %s with the 404 page',
    async (path) => {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status).toBe(404);
      expect(await response.text()).toContain('Página não encontrada');
    },
  );
});

describe('content pages of a store with no contact channel yet', () => {
  beforeAll(async () => {
    // The sample store comes with contacts; this one has cleared them all.
    await saveSampleSettings(staff, {
      contact_whatsapp: '',
      contact_email: '',
      contact_phone: '',
      contact_address: '',
    });
  });

  it('says so kindly when the store has no contact channel yet', async () => {
    const page = await new Visitor(server.url).get('/contato');
    expect(page.status).toBe(200);
    const [article = ''] = elements(page.text, 'article');
    expect(visibleText(article)).toContain(
      'Em breve publicaremos aqui os nossos canais de atendimento.',
    );
    expect(elements(article, 'a').filter((link) => link.includes('href="https://wa.me/'))).toEqual(
      [],
    );
  });
});

describe('content pages with the store’s settings', () => {
  beforeAll(async () => {
    await saveSampleSettings(staff, {
      store_name: 'Casa Aurora',
      contact_whatsapp: '5511987654321',
      contact_email: 'atendimento@casaaurora.com.br',
      contact_phone: '(11) 4000-1234',
      contact_address: 'Rua das Flores, 100 - São Paulo/SP',
      return_window_days: 45,
      about_image_url: '/sample/logo.svg',
      about_page_text: [
        '# Nossa história',
        'Somos a **Casa Aurora**.',
        '<script>window.pwned = true</script>',
        '<img src="x" onerror="window.pwned = true">',
        '[Clique aqui](javascript:window.pwned=true)',
      ].join('\n\n'),
    });
  });

  it('lists every configured channel on /contato with working links', async () => {
    const { page, problems } = await openPage(browser, `${server.url}/contato`);
    const channels = page.getByRole('region', { name: 'Canais de atendimento' });
    expect(
      await channels.getByRole('link', { name: '+55 (11) 98765-4321' }).getAttribute('href'),
    ).toBe('https://wa.me/5511987654321');
    expect(
      await channels
        .getByRole('link', { name: 'atendimento@casaaurora.com.br' })
        .getAttribute('href'),
    ).toBe('mailto:atendimento@casaaurora.com.br');
    expect(await channels.getByRole('link', { name: '(11) 4000-1234' }).getAttribute('href')).toBe(
      'tel:1140001234',
    );
    expect(await channels.locator('address').innerText()).toBe(
      'Rua das Flores, 100 - São Paulo/SP',
    );
    // The footer of every page carries the same channels, the address beside the store's name.
    const footer = page.getByRole('contentinfo');
    expect(
      await footer.getByRole('link', { name: '+55 (11) 98765-4321' }).getAttribute('href'),
    ).toBe('https://wa.me/5511987654321');
    expect(await footer.getByRole('link', { name: '(11) 4000-1234' }).getAttribute('href')).toBe(
      'tel:1140001234',
    );
    expect(await footer.locator('address').innerText()).toBe('Rua das Flores, 100 - São Paulo/SP');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      VIEWPORTS.desktop.width,
    );
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('builds the policy from the settings: name, window and channels', async () => {
    const { page } = await openPage(browser, `${server.url}/politicadevolucao`, VIEWPORTS.mobile);
    const text = await page.locator('article').innerText();
    expect(text).toContain('comprado na loja Casa Aurora');
    expect(text).toContain('45 dias corridos');
    expect(text).not.toContain('30 dias');
    expect(await page.locator('article a[href="https://wa.me/5511987654321"]').count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      VIEWPORTS.mobile.width,
    );
    await page.context().close();
  });

  it('renders the store’s own Markdown and photo, with HTML shown as text and no script links', async () => {
    const { page, problems } = await openPage(browser, `${server.url}/sobre`);
    const article = page.locator('article');
    expect(await article.getByRole('heading', { level: 2 }).innerText()).toBe('Nossa história');
    expect(await article.locator('strong').innerText()).toBe('Casa Aurora');
    expect(await article.innerText()).toContain('<script>window.pwned = true</script>');
    expect(await article.locator('script').count()).toBe(0);
    // The one image is the store's about photo, not the one written in the Markdown.
    const image = article.locator('img');
    expect(await image.getAttribute('src')).toMatch(publicFileSrc('/sample/logo.svg'));
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth > 0)).toBe(true);
    expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
    expect(await page.evaluate(() => (window as { pwned?: boolean }).pwned)).toBeUndefined();
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
