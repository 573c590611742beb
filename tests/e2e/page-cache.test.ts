import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ADMIN, adminVisitor, saveSampleSettings, withAdmin } from '../support/admin';
import { sampleProduct, sampleProductPath } from '../support/sample';
import { startServer, type TestServer } from '../support/server';
import { Visitor, type Page } from '../support/visitor';

const cacheState = (page: Page) => page.headers.get('x-page-cache');
const badge = (page: Page) => /aria-label="(Carrinho, [^"]+)"/.exec(page.text)?.[1];
const scheme = (page: Page) => /<html[^>]*data-theme="(\w+)"/.exec(page.text)?.[1] ?? null;
const PIXEL = 'fbq(';

/** A shopper who chose a colour scheme and consent, with units in the cart. */
async function shopperWith(
  baseUrl: string,
  choices: { units?: number; theme?: 'dark' | 'light'; consent?: 'granted' | 'denied' },
): Promise<Visitor> {
  const shopper = new Visitor(baseUrl);
  if (choices.units) await shopper.addToCart(sampleProduct('Fone').id, choices.units);
  if (choices.theme) {
    await shopper.post('/preferences', { intent: 'theme', theme: choices.theme, redirectTo: '/' });
  }
  if (choices.consent) {
    await shopper.post('/preferences', {
      intent: 'consent',
      consent: choices.consent,
      redirectTo: '/',
    });
  }
  return shopper;
}

describe('the full-page cache', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer({
      // A tracking pixel, so consent changes the page: the pixel only after a yes.
      // Quantities up to the stock, so the product page's quantity field tells it (stockOf).
      settings: {
        facebook_pixel_id: '123456789012345',
        enable_dark_mode: true,
        max_quantity_per_item: 999,
      },
      prepare: withAdmin(),
      env: { PAYMENT_PROVIDER: 'sandbox' },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers the second visit from the cache, each with a nonce of its own', async () => {
    const visitor = new Visitor(server.url);
    const path = sampleProductPath('Teclado');
    const pages = [await visitor.get(path), await visitor.get(path), await visitor.get(path)];
    expect(pages.map(cacheState)).toEqual([expect.stringMatching(/miss|hit/), 'hit', 'hit']);
    const nonces = pages.map((page) => {
      const policy = page.headers.get('content-security-policy') ?? '';
      const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
      expect(nonce).toBeTruthy();
      // Every script in the page carries the nonce its own policy allows, and no other.
      const inPage = new Set([...page.text.matchAll(/nonce="([^"]+)"/g)].map((match) => match[1]));
      expect([...inPage]).toEqual([nonce]);
      return nonce;
    });
    expect(new Set(nonces).size).toBe(3);
  });

  it("never serves one shopper's cart count, consent or colour scheme to another", async () => {
    const path = '/products?ordem=menor-preco';
    const chosen = await shopperWith(server.url, { units: 2, theme: 'dark', consent: 'granted' });
    const plain = new Visitor(server.url);
    const other = await shopperWith(server.url, { units: 3, theme: 'light', consent: 'denied' });
    for (let round = 0; round < 2; round += 1) {
      const [a, b, c] = [await chosen.get(path), await plain.get(path), await other.get(path)];
      expect([a, b, c].map((page) => page.status)).toEqual([200, 200, 200]);
      if (round === 1) expect([a, b, c].map(cacheState)).toEqual(['hit', 'hit', 'hit']);
      expect([badge(a), badge(b), badge(c)]).toEqual([
        'Carrinho, 2 itens',
        'Carrinho, vazio',
        'Carrinho, 3 itens',
      ]);
      expect([scheme(a), scheme(b), scheme(c)]).toEqual(['dark', null, 'light']);
      expect([a, b, c].map((page) => page.text.includes(PIXEL))).toEqual([true, false, false]);
      expect(b.text).toContain('aria-label="Consentimento de cookies"');
      expect(a.text).not.toContain('aria-label="Consentimento de cookies"');
    }
  });

  it('keeps the data of client navigations apart in the same way', async () => {
    const chosen = await shopperWith(server.url, { units: 1 });
    const plain = new Visitor(server.url);
    const path = '/products.data?q=fone';
    const first = await plain.get(path);
    expect(first.status).toBe(200);
    const [a, b] = [await chosen.get(path), await plain.get(path)];
    expect(cacheState(b)).toBe('hit');
    expect(b.text).toBe(first.text);
    expect(a.text).not.toBe(b.text);
  });

  it('never keeps an error', async () => {
    const visitor = new Visitor(server.url);
    const missing = [
      await visitor.get('/product/nao-existe'),
      await visitor.get('/product/nao-existe'),
    ];
    expect(missing.map((page) => page.status)).toEqual([404, 404]);
    expect(missing.map(cacheState)).toEqual(['miss', 'miss']);
  });

  it('renders a landing from a campaign link, so its attribution is kept', async () => {
    const visitor = new Visitor(server.url);
    await visitor.get('/');
    const landing = await visitor.get('/?utm_source=instagram&utm_campaign=natal');
    expect(cacheState(landing)).toBe('bypass');
    expect(visitor.cookies.has('vitrine_utm')).toBe(true);
  });

  it('never answers staff from the cache, nor shows shoppers their bar', async () => {
    const shopper = new Visitor(server.url);
    await shopper.get('/');
    const admin = await adminVisitor(server.url, ADMIN);
    const staffPage = await admin.get('/');
    expect(cacheState(staffPage)).toBe('bypass');
    expect(cacheState(await shopper.get('/'))).toBe('hit');
  });

  it('drops its pages when the catalogue changes, such as a sale taking stock', async () => {
    const path = sampleProductPath('Mouse');
    const shopper = new Visitor(server.url);
    const before = await shopper.stockOf(sampleProduct('Mouse').id);
    expect(cacheState(await shopper.get(path))).toBe('hit');
    await shopper.addToCart(sampleProduct('Mouse').id, 1);
    await shopper.checkout();
    // The sale's NOTIFY reaches the cache right after the commit.
    await expect
      .poll(async () => new Visitor(server.url).stockOf(sampleProduct('Mouse').id), {
        timeout: 1_000,
        interval: 20,
      })
      .toBe(before - 1);
  });

  // The same server, closed through the admin (a server costs seconds of CPU to start).
  describe('during maintenance', () => {
    beforeAll(async () => {
      await saveSampleSettings(await adminVisitor(server.url, ADMIN), { maintenance_mode: true });
    });

    it('keeps neither the closed page nor the preview staff see', async () => {
      const shopper = new Visitor(server.url);
      const admin = await adminVisitor(server.url, ADMIN);
      const closed = await shopper.get('/');
      const preview = await admin.get('/');
      const again = await shopper.get('/');
      expect([closed.status, preview.status, again.status]).toEqual([503, 200, 503]);
      expect(preview.text).toContain('Modo de manutenção ativo');
      expect(again.text).not.toContain('Modo de manutenção ativo');
      expect(cacheState(again)).toBe('miss');
    });
  });
});
