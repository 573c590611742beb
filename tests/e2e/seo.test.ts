import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SAMPLE_PRODUCTS } from '~/flows/sample-store';

import { launchBrowser, openPage } from '../support/browser';
import { sampleProductPath } from '../support/sample';
import { startServer, type TestServer } from '../support/server';

const CONTENT_PATHS = ['/sobre', '/politicadevolucao', '/politicaprivacidade', '/faq', '/contato'];

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The <loc> and <lastmod> of each URL, parsed by Chromium's XML parser (which fails on bad XML). */
async function parseSitemap(xml: string) {
  const { page } = await openPage(browser, 'about:blank');
  const parsed = await page.evaluate((source) => {
    const doc = new DOMParser().parseFromString(source, 'application/xml');
    if (doc.querySelector('parsererror')) return null;
    return {
      namespace: doc.documentElement.namespaceURI,
      urls: [...doc.getElementsByTagName('url')].map((url) => ({
        loc: url.getElementsByTagName('loc')[0]?.textContent ?? '',
        lastmod: url.getElementsByTagName('lastmod')[0]?.textContent ?? null,
      })),
    };
  }, xml);
  await page.context().close();
  expect(parsed, 'the sitemap is well-formed XML').not.toBeNull();
  return parsed!;
}

describe('sitemap and robots with the default settings', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('lists every product with its last change, the home, the catalogue and the content pages', async () => {
    const response = await fetch(`${server.url}/sitemap.xml`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(response.headers.get('cache-control')).toMatch(/max-age=\d+/);
    const sitemap = await parseSitemap(await response.text());

    expect(sitemap.namespace).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    const locs = sitemap.urls.map((url) => url.loc);
    expect(locs).toEqual(
      expect.arrayContaining(
        ['/', '/products', ...CONTENT_PATHS].map((path) => `${server.url}${path}`),
      ),
    );
    const products = sitemap.urls.filter((url) => url.loc.includes('/product/'));
    expect(products.map((url) => url.loc).sort()).toEqual(
      SAMPLE_PRODUCTS.map((product) => `${server.url}${sampleProductPath(product.name)}`).sort(),
    );
    for (const product of products) {
      expect(Number.isNaN(Date.parse(product.lastmod ?? ''))).toBe(false);
    }
    expect(sitemap.urls).toHaveLength(7 + SAMPLE_PRODUCTS.length);
  });

  it('leads crawlers past private pages to the sitemap', async () => {
    const response = await fetch(`${server.url}/robots.txt`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const robots = await response.text();
    expect(robots).toContain('User-agent: *');
    for (const path of ['/cart', '/checkout', '/admin']) {
      expect(robots).toMatch(new RegExp(`^Disallow: ${path}$`, 'm'));
    }
    expect(robots).not.toMatch(/^Disallow: \/$/m);
    expect(robots).toMatch(new RegExp(`^Sitemap: ${server.url}/sitemap.xml$`, 'm'));
  });

  it('gives each content page its description and Open Graph tags', async () => {
    const { page } = await openPage(browser, `${server.url}/faq`);
    const meta = (selector: string) => page.locator(selector).getAttribute('content');
    expect(await meta('meta[name="description"]')).toBe(
      'Respostas sobre produtos, pagamento, entrega e devoluções na TechStore.',
    );
    expect(await meta('meta[property="og:title"]')).toBe('Perguntas Frequentes | TechStore');
    expect(await meta('meta[property="og:url"]')).toBe(`${server.url}/faq`);
    expect(await meta('meta[name="robots"]')).toBe('index, follow');
    await page.context().close();
  });
});

describe('sitemap and robots of a store with a canonical URL that asks not to be indexed', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({
      settings: { canonical_url: 'https://loja.example.com.br/', meta_robots: 'noindex, nofollow' },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('writes absolute URLs on the canonical address', async () => {
    const sitemap = await parseSitemap(await (await fetch(`${server.url}/sitemap.xml`)).text());
    expect(sitemap.urls).toHaveLength(7 + SAMPLE_PRODUCTS.length);
    for (const url of sitemap.urls) expect(url.loc).toMatch(/^https:\/\/loja\.example\.com\.br\//);
  });

  it('closes the whole store to crawlers', async () => {
    const robots = await (await fetch(`${server.url}/robots.txt`)).text();
    expect(robots).toMatch(/^Disallow: \/$/m);
    expect(robots).not.toContain('Disallow: /cart');
    expect(robots).toContain('Sitemap: https://loja.example.com.br/sitemap.xml');
  });
});
