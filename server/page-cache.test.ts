import { constants, deflateRawSync, gunzipSync } from 'node:zlib';

import type express from 'express';
import { describe, expect, it } from 'vitest';

import type { ChangeFeed, ChangedTable } from '~/db/changes.server';
import { savedCepCookieHeader } from '~/modules/address/index.server';
import { cartCookieHeader } from '~/modules/cart/index.server';
import { colorSchemeCookieHeader } from '~/modules/settings/index.server';
import { consentCookieHeader } from '~/modules/tracking/index.server';

import { createPageCache, deflatePieces, gzipAround } from './page-cache';

describe('gzipAround', () => {
  const nonce = Buffer.from('Zm9vYmFyYmF6cXV4cXV1eA==');
  const gzipOf = (texts: string[]) => {
    const segments = texts.map((text) => Buffer.from(text));
    return gzipAround({ segments, deflated: deflatePieces(segments, nonce.length) }, nonce);
  };

  it('makes a valid gzip of the body with the fresh nonce between the pieces', () => {
    const script = (name: string) => `<link rel="modulepreload" href="/assets/${name}.js" nonce="`;
    const cases = [
      ['<html><script nonce="', '">a()</script><script nonce="', '">b()</script></html>'],
      ['', ' starts and ends with the nonce ', ''],
      ['no nonce at all, as in a .data answer'],
      ['x'.repeat(100_000), 'y'.repeat(70_000), 'x'.repeat(40_000)],
      // Text around each nonce repeats, which tempts the compressor to reach across one.
      ['a', 'b', 'c', 'd', 'e'].map(script).concat('"/>'),
      // A body holding a NUL is deflated without looking back, and still joins.
      ['\u0000 nonce="', '" \u0000 nonce="', '"'],
    ];
    for (const texts of cases) {
      expect(gunzipSync(gzipOf(texts)).toString()).toBe(texts.join(nonce.toString()));
    }
  });

  it('compresses far better than pieces deflated on their own, by looking back past the nonces', () => {
    const links = Array.from(
      { length: 25 },
      (_, index) => `<link rel="modulepreload" href="/assets/chunk-${index}-a1b2c3.js" nonce="`,
    );
    const segments = [...links, '"/>'].map((text) => Buffer.from(text));
    const alone = segments.map((segment, index) =>
      deflateRawSync(segment, {
        finishFlush: index < segments.length - 1 ? constants.Z_SYNC_FLUSH : constants.Z_FINISH,
      }),
    );
    const lookingBack = gzipAround(
      { segments, deflated: deflatePieces(segments, nonce.length) },
      nonce,
    );
    expect(lookingBack.length).toBeLessThan(
      gzipAround({ segments, deflated: alone }, nonce).length * 0.7,
    );
  });
});

/** A change feed driven by the test: the interface is ours, the database is not involved. */
function manualFeed(): Pick<ChangeFeed, 'version' | 'live' | 'subscribe'> & {
  announce(table: ChangedTable | null): void;
  down(): void;
} {
  let version = 0;
  let live = true;
  const listeners = new Set<(table: ChangedTable | null) => void>();
  const announce = (table: ChangedTable | null) => {
    version += 1;
    for (const listener of listeners) listener(table);
  };
  return {
    version: () => version,
    live: () => live,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    announce,
    down() {
      live = false;
      announce(null);
    },
  };
}

function request(url: string, cookie?: string): express.Request {
  const queryStart = url.indexOf('?');
  return {
    method: 'GET',
    path: queryStart < 0 ? url : url.slice(0, queryStart),
    originalUrl: url,
    headers: cookie ? { cookie } : {},
  } as express.Request;
}

const response = {} as express.Response;

function cacheOver(changes: ReturnType<typeof manualFeed>, maxBytes = 1024 * 1024) {
  return createPageCache({
    maxBytes,
    ttlMs: 60_000,
    changes,
    publicOrigin: () => 'https://loja.test',
  });
}

/** The `name=value` a Set-Cookie header stores. */
const pair = (header: string) => header.split(';')[0]!;

async function cartCookie(quantities: number[]): Promise<string> {
  const lines = quantities.map((quantity, index) => ({
    productId: `00000000-0000-4000-8000-00000000000${index}`,
    variantId: null,
    quantity,
    seenPriceCents: 100,
    seenName: 'Produto',
  }));
  return pair(await cartCookieHeader(lines));
}

describe('the page cache key', () => {
  const cache = (changes = manualFeed()) => cacheOver(changes);

  it('keeps the known parameters in a fixed order and leaves out the others', async () => {
    const pages = cache();
    const a = await pages.plan(request('/products?ordem=menor-preco&fbclid=x&q=fone'), response);
    const b = await pages.plan(request('/products?q=fone&ordem=menor-preco'), response);
    expect(a).not.toBeNull();
    expect(a).toEqual(b);
    expect(a!.url).toBe('/products?q=fone&ordem=menor-preco');
    expect(a!.key).toContain('https://loja.test ');
  });

  it('keeps every value of the option filter, so each choice is a page of its own', async () => {
    const pages = cache();
    const plan = async (query: string) =>
      (await pages.plan(request(`/products${query}`), response))!;
    const both = await plan('?opcao=Tamanho%3AG&fbclid=x&opcao=Cor%3AAzul&q=camiseta');
    expect(both.url).toBe('/products?q=camiseta&opcao=Tamanho%3AG&opcao=Cor%3AAzul');
    expect((await plan('?q=camiseta&opcao=Tamanho%3AG')).key).not.toBe(both.key);
    expect((await plan('?q=camiseta')).key).not.toBe(both.key);
  });

  it('tells apart carts of different sizes, not carts of the same size', async () => {
    const pages = cache();
    const plan = async (cookie: string) => (await pages.plan(request('/', cookie), response))!;
    const two = await plan(await cartCookie([2]));
    const alsoTwo = await plan(await cartCookie([1, 1]));
    const three = await plan(await cartCookie([3]));
    const none = await plan('');
    expect(two.key).toBe(alsoTwo.key);
    expect(new Set([two.key, three.key, none.key]).size).toBe(3);
  });

  it('tells apart consent and colour scheme, and ignores cookies that do not change the page', async () => {
    const pages = cache();
    const key = async (cookie: string) => (await pages.plan(request('/', cookie), response))!.key;
    const plain = await key('_ga=GA1.2.3');
    const consent = pair(await consentCookieHeader('granted'));
    const dark = pair(await colorSchemeCookieHeader('dark'));
    expect(await key(consent)).not.toBe(plain);
    expect(await key(dark)).not.toBe(plain);
    expect(await key('vitrine_utm=abc; _ga=GA1.2.4')).toBe(plain);
    // The render sees only the cookies the key accounts for.
    expect((await pages.plan(request('/', `vitrine_utm=abc; ${dark}`), response))!.cookie).toBe(
      dark,
    );
  });

  it('keys the saved CEP on product pages only', async () => {
    const pages = cache();
    const key = async (url: string, cookie: string) =>
      (await pages.plan(request(url, cookie), response))!.key;
    const cep = pair(savedCepCookieHeader('01310100'));
    expect(await key('/product/fone', cep)).not.toBe(await key('/product/fone', ''));
    expect(await key('/', cep)).toBe(await key('/', ''));
  });

  it('is bypassed for staff, for side effects, for other pages and while not live', async () => {
    const changes = manualFeed();
    const pages = cache(changes);
    expect(await pages.plan(request('/', 'vitrine_session=abc'), response)).toBeNull();
    expect(await pages.plan(request('/', '__Host-vitrine_session=abc'), response)).toBeNull();
    expect(await pages.plan(request('/?utm_source=instagram'), response)).toBeNull();
    expect(await pages.plan(request('/product/fone?cep=01310-100'), response)).toBeNull();
    for (const path of [
      '/cart',
      '/checkout',
      '/admin',
      '/historico',
      '/preferences',
      '/favoritos',
    ]) {
      expect(await pages.plan(request(path), response)).toBeNull();
    }
    expect(
      await pages.plan({ ...request('/'), method: 'HEAD' } as express.Request, response),
    ).toBeNull();
    expect(await pages.plan(request('/'), response)).not.toBeNull();
    changes.down();
    expect(await pages.plan(request('/'), response)).toBeNull();
  });
});

describe('the page cache', () => {
  const page = (body: string, init?: ResponseInit) =>
    new Response(body, { headers: { 'Content-Type': 'text/html' }, ...init });

  it('keeps 200s that set no cookie, and drops everything on a change', async () => {
    const changes = manualFeed();
    const pages = cacheOver(changes);
    const keep = async (url: string, answer: Response) => {
      const plan = (await pages.plan(request(url), response))!;
      const rendering = pages.begin(plan);
      const waiting = pages.pending(plan.key);
      rendering.done(answer, Buffer.from(await answer.clone().arrayBuffer()), 'n0nce');
      return waiting;
    };
    await expect(keep('/', page('ok'))).resolves.toBe(true);
    await expect(keep('/sobre', page('missing', { status: 404 }))).resolves.toBe(false);
    await expect(
      keep('/faq', page('ok', { headers: { 'Set-Cookie': 'a=b', 'Content-Type': 'text/html' } })),
    ).resolves.toBe(false);
    expect(pages.size().entries).toBe(1);
    changes.announce('products');
    expect(pages.size()).toEqual({ entries: 0, bytes: 0 });
  });

  it('does not keep a page rendered while something changed', async () => {
    const changes = manualFeed();
    const pages = cacheOver(changes);
    const plan = (await pages.plan(request('/'), response))!;
    const rendering = pages.begin(plan);
    changes.announce('store_settings');
    rendering.done(page('old'), Buffer.from('old'), 'n0nce');
    expect(pages.size().entries).toBe(0);
  });

  it('stays within its bytes, dropping the oldest entries', async () => {
    const changes = manualFeed();
    const pages = cacheOver(changes, 40_000);
    // Random text does not compress: each entry holds about twice its size.
    for (let index = 0; index < 10; index += 1) {
      const plan = (await pages.plan(request(`/product/p${index}`), response))!;
      const body = Buffer.from(crypto.getRandomValues(new Uint8Array(3_000)));
      pages.begin(plan).done(page('x'), body, 'n0nce');
      expect(pages.size().bytes).toBeLessThanOrEqual(40_000);
    }
    expect(pages.size().entries).toBeGreaterThan(1);
    expect(pages.size().entries).toBeLessThan(10);
  });
});
