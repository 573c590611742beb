import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ADMIN, adminVisitor, signIn, withAdmin } from '../support/admin';
import { launchBrowser, openPage } from '../support/browser';
import { freePort } from '../support/ports';
import { startServer, type TestServer } from '../support/server';

// Staff apart from the store's third-party code (ADR 019).

const TRACKING = {
  facebook_pixel_id: '123456789012345',
  custom_head_scripts: '<script>window.customHeadRan = true;</script>',
  custom_footer_scripts: '<script src="https://tags.example/footer.js"></script>',
};

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Serves the tags' files from the test instead of the internet, and counts the requests. */
async function fakeVendors(page: Page): Promise<string[]> {
  const requested: string[] = [];
  await page.context().route(/^https:\/\/(connect\.facebook\.net|tags\.example)\//, (route) => {
    requested.push(route.request().url());
    return route.fulfill({ contentType: 'text/javascript', body: 'window.vendorFileRan = true;' });
  });
  return requested;
}

/** The store's tags among the page's script elements (the page's data names them too, as text). */
function tagElements(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.scripts]
      .map((script) => script.src || script.textContent!.trim())
      .filter(
        (code) =>
          code.startsWith('https://tags.example/') || code.startsWith('window.customHeadRan'),
      ),
  );
}

/** Accepts the cookie banner and waits for the page it reloads. */
async function acceptCookies(page: Page) {
  await page.getByRole('button', { name: 'Aceitar cookies' }).click();
  await page.waitForLoadState('networkidle');
  await page
    .getByRole('region', { name: 'Consentimento de cookies' })
    .waitFor({ state: 'detached' });
}

/** The directives of a Content-Security-Policy header, each with its sources. */
function directives(header: string | null): Map<string, string[]> {
  return new Map(
    (header ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name!, sources]),
  );
}

/** Sources that name no other origin: this one, none, the nonce, inline styles, data: URLs. */
function foreignSources(policy: Map<string, string[]>): string[] {
  return [...policy].flatMap(([name, sources]) =>
    sources
      .filter(
        (source) =>
          !["'self'", "'none'", "'unsafe-inline'", 'data:'].includes(source) &&
          !/^'nonce-[\w+/=]+'$/.test(source),
      )
      .map((source) => `${name} ${source}`),
  );
}

describe('a store with tags, and its staff', () => {
  let store: TestServer;
  beforeAll(async () => {
    store = await startServer({ settings: TRACKING, prepare: withAdmin() });
  });
  afterAll(async () => {
    await store?.stop();
  });

  it('runs the tags for a shopper who consented, never beside a signed-in admin', async () => {
    // The control: an anonymous visitor who accepts gets every tag.
    const shopper = await openPage(browser, 'about:blank');
    const shopperRequests = await fakeVendors(shopper.page);
    await shopper.page.goto(`${store.url}/products`, { waitUntil: 'networkidle' });
    await acceptCookies(shopper.page);
    await expect.poll(() => shopper.page.evaluate(() => 'customHeadRan' in window)).toBe(true);
    expect(shopperRequests.some((url) => url.includes('fbevents.js'))).toBe(true);
    expect(shopperRequests).toContain('https://tags.example/footer.js');
    expect((await tagElements(shopper.page)).sort()).toEqual([
      'https://tags.example/footer.js',
      'window.customHeadRan = true;',
    ]);
    await shopper.page.context().close();

    // The same page, the same consent, with an admin signed in in the same browser.
    const staff = await openPage(browser, 'about:blank');
    const staffRequests = await fakeVendors(staff.page);
    await signIn(staff.page, store.url);
    const first = await staff.page.goto(`${store.url}/products`, { waitUntil: 'networkidle' });
    // Staff bypass the page cache: a shopper's kept page would carry the tags.
    expect(first!.headers()['x-page-cache']).toBe('bypass');
    await acceptCookies(staff.page);
    const page = await staff.page.goto(`${store.url}/products`, { waitUntil: 'networkidle' });
    expect(page!.headers()['x-page-cache']).toBe('bypass');
    expect(await staff.page.evaluate(() => 'customHeadRan' in window)).toBe(false);
    expect(await staff.page.evaluate(() => typeof (window as { fbq?: unknown }).fbq)).toBe(
      'undefined',
    );
    expect(await tagElements(staff.page)).toEqual([]);
    expect(staffRequests).toEqual([]);
    await staff.page
      .getByRole('note')
      .getByText('Você está conectado ao painel', { exact: false })
      .waitFor();
    expect(staff.problems).toEqual([]);

    // Signed out, the same browser gets them again.
    await staff.page.goto(`${store.url}/admin`, { waitUntil: 'networkidle' });
    await staff.page.getByRole('button', { name: 'Sair' }).click();
    await staff.page.waitForURL(`${store.url}/admin/login`);
    await staff.page.goto(`${store.url}/products`, { waitUntil: 'networkidle' });
    await expect.poll(() => staff.page.evaluate(() => 'customHeadRan' in window)).toBe(true);
    await staff.page.context().close();
  });

  it('gives admin pages a policy that allows no other origin, whatever the spelling of the address', async () => {
    const storefront = directives(
      (await fetch(`${store.url}/products`)).headers.get('content-security-policy'),
    );
    // The control: the storefront's policy lets the tags report home.
    expect(storefront.get('connect-src')).toContain('https:');
    expect(foreignSources(storefront)).not.toEqual([]);

    const admin = await adminVisitor(store.url);
    for (const path of ['/admin', '/admin/products/new', '/admin/settings', '/admin.data']) {
      const answer = await admin.request(path);
      expect(answer.status, path).toBe(200);
      const policy = directives(answer.headers.get('content-security-policy'));
      expect(foreignSources(policy), path).toEqual([]);
      expect(policy.get('script-src'), path).not.toContain("'strict-dynamic'");
      for (const name of ['default-src', 'script-src', 'img-src', 'connect-src', 'frame-src']) {
        expect(policy.has(name), `${path} ${name}`).toBe(true);
      }
    }
    // React Router matches without regard to case or escapes; so does the policy.
    for (const path of ['/admin/login', '/Admin/login', '/%61dmin/login']) {
      const answer = await fetch(`${store.url}${path}`);
      expect(answer.status, path).toBe(200);
      const policy = directives(answer.headers.get('content-security-policy'));
      expect(foreignSources(policy), path).toEqual([]);
      expect(answer.headers.get('cache-control'), path).toBe('private, no-store');
    }
  });

  it('writes the session to a __Host- cookie over https, behind the local proxy', async () => {
    const signInOver = (proto: string) =>
      fetch(`${store.url}/admin/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'X-Forwarded-Proto': proto },
        body: new URLSearchParams({
          intent: 'sign-in',
          email: ADMIN.email,
          password: ADMIN.password,
        }),
      });

    const secure = await signInOver('https');
    expect(secure.status).toBe(303);
    const [cookie] = secure.headers.getSetCookie();
    expect(cookie).toMatch(/^__Host-vitrine_session=[\w-]{40,}; /);
    const attributes = cookie!.split(/;\s*/).slice(1);
    expect(attributes).toEqual(
      expect.arrayContaining(['Path=/', 'HttpOnly', 'Secure', 'SameSite=Lax']),
    );
    expect(attributes.some((attribute) => /^domain=/i.test(attribute))).toBe(false);
    const session = cookie!.split(';')[0]!;
    const dashboard = await fetch(`${store.url}/admin`, {
      redirect: 'manual',
      headers: { 'X-Forwarded-Proto': 'https', Cookie: session },
    });
    expect(dashboard.status).toBe(200);

    // Plain http keeps the name it had.
    const plain = await signInOver('http');
    expect(plain.headers.getSetCookie()[0]).toMatch(/^vitrine_session=/);
    expect(plain.headers.getSetCookie()[0]).not.toMatch(/Secure/);
  });
});

/** A port free right now, so that both addresses can name it before the server starts. */
describe('the admin on its own origin (ADMIN_URL)', () => {
  let store: TestServer;
  let storefront: string;
  let admin: string;
  beforeAll(async () => {
    const port = await freePort();
    storefront = `http://localhost:${port}`;
    admin = `http://127.0.0.1:${port}`;
    store = await startServer({
      env: { PORT: String(port), PUBLIC_URL: storefront, ADMIN_URL: admin },
      settings: TRACKING,
      prepare: withAdmin(),
    });
  });
  afterAll(async () => {
    await store?.stop();
  });

  it('sends each side the other’s addresses, keeping path and query', async () => {
    const location = async (url: string) => {
      const answer = await fetch(url, { redirect: 'manual' });
      return `${answer.status} ${answer.headers.get('location')}`;
    };
    expect(await location(`${storefront}/admin/orders?status=pending`)).toBe(
      `302 ${admin}/admin/orders?status=pending`,
    );
    expect(await location(`${storefront}/Admin/login`)).toBe(`302 ${admin}/Admin/login`);
    expect(await location(`${admin}/products?ordem=menor-preco`)).toBe(
      `302 ${storefront}/products?ordem=menor-preco`,
    );
    expect(await location(`${admin}/`)).toBe(`302 ${admin}/admin`);
    // What the admin needs from outside /admin stays on its host.
    expect((await fetch(`${admin}/healthz`)).status).toBe(200);
    expect((await fetch(`${admin}/favicon.svg`)).status).toBe(200);
    expect((await fetch(`${storefront}/products`)).status).toBe(200);
    // The storefront, where the tags run, cannot post to the admin.
    const forged = await fetch(`${admin}/admin/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { Origin: storefront },
    });
    expect(forged.status).toBe(403);
  });

  it('signs in, opens a page and saves there, and links to the store at its own address', async () => {
    const { page, problems } = await openPage(browser, 'about:blank');
    await page.goto(`${storefront}/admin`, { waitUntil: 'networkidle' });
    expect(page.url()).toBe(`${admin}/admin/login`);
    await signIn(page, admin);
    await page.waitForLoadState('networkidle');

    await page.getByRole('link', { name: 'Categorias' }).first().click();
    await page.waitForURL(`${admin}/admin/categories`);
    await page.getByRole('button', { name: 'Adicionar categoria' }).click();
    const dialog = page.getByRole('dialog', { name: 'Adicionar categoria' });
    await dialog.getByLabel('Nome').fill('Papelaria');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await page.getByRole('status').getByText('Categoria criada com sucesso!').last().waitFor();
    await page.getByRole('article', { name: 'Papelaria' }).waitFor();

    // The session lives on the admin's host only.
    const cookies = await page.context().cookies();
    expect(cookies.map((cookie) => `${cookie.name}@${cookie.domain}`)).toEqual([
      'vitrine_session@127.0.0.1',
    ]);
    expect(await page.getByRole('link', { name: 'Ver loja' }).first().getAttribute('href')).toBe(
      `${storefront}/`,
    );
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
