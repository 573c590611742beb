import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SAMPLE_CATALOGUE } from '~/flows/sample-store';
import { prepareImages, storeImages } from '~/modules/media/index.server';
import { saveSettings } from '~/modules/settings/index.server';

import { firstAdminVisitor, saveSampleSettings } from '../support/admin';
import { launchBrowser, openPage } from '../support/browser';
import { attribute, element } from '../support/html';
import { sampleProduct, sampleProductPath } from '../support/sample';
import { startServer, type TestServer } from '../support/server';
import { Visitor } from '../support/visitor';

/** A live store that takes payments: PIX with the store's own key. */
const SELLING = {
  env: { PAYMENT_PROVIDER: 'pix' },
  settings: {
    pix_key: 'contato@techstore.com.br',
    pix_merchant_name: 'TechStore',
    pix_merchant_city: 'Sao Paulo',
  },
};

const CONTENT_PATHS = ['/sobre', '/politicadevolucao', '/politicaprivacidade', '/faq', '/contato'];

// One server for the file: a live store that sells, with its own share picture uploaded; the
// last block saves other settings through the admin (a server costs seconds of CPU to start).
// A demo keeps crawlers out (tests/e2e/demo-store.test.ts), and so does a live store that cannot
// take a payment (tests/e2e/store-readiness.test.ts); one that sells invites them.
let browser: Browser;
let server: TestServer;
beforeAll(async () => {
  [browser, server] = await Promise.all([
    launchBrowser(),
    startServer({
      mode: 'live',
      env: SELLING.env,
      settings: SELLING.settings,
      // The store's own share picture, uploaded (uploads are WebP).
      prepare: async (db) => {
        const png = await sharp({
          create: { width: 1600, height: 1200, channels: 3, background: '#0a78c8' },
        })
          .png()
          .toBuffer();
        const prepared = await prepareImages(db, [
          new File([new Uint8Array(png)], 'capa.png', { type: 'image/png' }),
        ]);
        if (!prepared.ok) throw new Error(prepared.error);
        await storeImages(db, prepared.images);
        await saveSettings(db, { og_image_url: prepared.images[0]!.url });
      },
    }),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The `content` of the page's meta tag the selector names, as the server wrote it. */
async function metaOf(path: string) {
  const page = await new Visitor(server.url).get(path);
  expect(page.status).toBe(200);
  return (selector: string) => attribute(element(page.text, selector), 'content');
}

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

describe('sitemap and robots of a live store with the default settings', () => {
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
      SAMPLE_CATALOGUE.map((product) => `${server.url}${sampleProductPath(product.name)}`).sort(),
    );
    for (const product of products) {
      expect(Number.isNaN(Date.parse(product.lastmod ?? ''))).toBe(false);
    }
    expect(sitemap.urls).toHaveLength(7 + SAMPLE_CATALOGUE.length);
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
    const meta = await metaOf('/faq');
    expect(meta('meta[name="description"]')).toBe(
      'Respostas sobre produtos, pagamento, entrega e devoluções na loja TechStore.',
    );
    expect(meta('meta[property="og:title"]')).toBe('Perguntas frequentes | TechStore');
    expect(meta('meta[property="og:url"]')).toBe(`${server.url}/faq`);
    expect(meta('meta[name="robots"]')).toBe('index, follow');
  });
});

describe('share pictures and the icon', () => {
  /** The page's og:image tags, and what its picture's URL answers. */
  async function shareImage(path: string) {
    const meta = await metaOf(path);
    const tags = {
      url: meta('meta[property="og:image"]')!,
      type: meta('meta[property="og:image:type"]'),
      width: meta('meta[property="og:image:width"]'),
      height: meta('meta[property="og:image:height"]'),
      twitter: meta('meta[name="twitter:image"]'),
    };
    expect(tags.url.startsWith(`${server.url}/`)).toBe(true);
    const response = await fetch(tags.url);
    const { format, width, height } = await sharp(
      new Uint8Array(await response.arrayBuffer()),
    ).metadata();
    return { tags, response, picture: { format, width, height } };
  }

  it('shows a product by a JPEG of its first picture (WhatsApp shows no SVG)', async () => {
    const headphones = sampleProduct('Fone de Ouvido');
    expect(headphones.imageUrls?.[0]).toMatch(/\.svg$/);
    const { tags, response, picture } = await shareImage(sampleProductPath(headphones.name));
    expect(tags).toMatchObject({ type: 'image/jpeg', width: '1200', height: '630' });
    expect(tags.twitter).toBe(tags.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect(response.headers.get('cache-control')).toMatch(/max-age=\d{6,}/);
    expect(picture).toEqual({ format: 'jpeg', width: 1200, height: 630 });
  });

  it("shows the home page by a JPEG of the store's uploaded share picture", async () => {
    const { tags, response, picture } = await shareImage('/');
    expect(tags).toMatchObject({ type: 'image/jpeg', width: '1200', height: '630' });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toContain('immutable');
    expect(picture).toEqual({ format: 'jpeg', width: 1200, height: 630 });
  });

  it("makes share pictures of the site's own images only", async () => {
    for (const path of [
      '/og/sample/nao-existe.svg.jpg',
      '/og/..%2Fpackage.json.jpg',
      // A picture of the repository outside public/.
      '/og/..%2Fdocs%2Fscreenshots%2Fhome-360.png.jpg',
      '/og/sample/logo.svg',
    ]) {
      const response = await fetch(`${server.url}${path}`);
      await response.arrayBuffer();
      expect(response.status, path).toBe(404);
    }
  });

  it('answers /favicon.ico with an icon', async () => {
    const response = await fetch(`${server.url}/favicon.ico`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)$/);
    // An ICO file's header: reserved 0, type 1 (icon).
    expect([...new Uint8Array(await response.arrayBuffer()).subarray(0, 4)]).toEqual([0, 0, 1, 0]);
  });
});

describe('sitemap and robots of a store with a canonical URL that asks not to be indexed', () => {
  beforeAll(async () => {
    await saveSampleSettings(await firstAdminVisitor(server), {
      ...SELLING.settings,
      canonical_url: 'https://loja.example.com.br/',
      meta_robots: 'noindex, nofollow',
    });
  });

  it('writes absolute URLs on the canonical address', async () => {
    const sitemap = await parseSitemap(await (await fetch(`${server.url}/sitemap.xml`)).text());
    expect(sitemap.urls).toHaveLength(7 + SAMPLE_CATALOGUE.length);
    for (const url of sitemap.urls) expect(url.loc).toMatch(/^https:\/\/loja\.example\.com\.br\//);
  });

  it('closes the whole store to crawlers', async () => {
    const robots = await (await fetch(`${server.url}/robots.txt`)).text();
    expect(robots).toMatch(/^Disallow: \/$/m);
    expect(robots).not.toContain('Disallow: /cart');
    expect(robots).toContain('Sitemap: https://loja.example.com.br/sitemap.xml');
  });
});
