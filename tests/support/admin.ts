import type { Browser, Page as BrowserPage } from 'playwright-core';

import type { Db } from '~/db/database.server';
import { SAMPLE_SETTINGS } from '~/flows/sample-store';
import { createAdmin } from '~/modules/auth/index.server';
import { defaultSettings, type StoreSettings } from '~/modules/settings';
import { SETTINGS_FORM_FIELDS, settingsFormValues } from '~/modules/settings/index.admin';

import { openPage, waitForHydration, type Viewport } from './browser';
import type { TestServer } from './server';
import type { TemplatedPrepare } from './store';
import { Visitor, visibleText } from './visitor';

/** The admin that `withAdmin` creates. */
export const ADMIN = {
  email: 'gerente@loja.com.br',
  fullName: 'Gerente da Loja',
  password: 'senha-forte-123',
} as const;

/** Where the e2e global setup leaves a copy of the store template with the test admin in it. */
export const ADMIN_TEMPLATE_ENV = 'VITRINE_TEST_ADMIN_TEMPLATE';

async function addAdmin(db: Db): Promise<void> {
  const created = await createAdmin(db, ADMIN);
  if (!created.ok) throw new Error(created.error);
}

const ADMIN_ONLY: TemplatedPrepare = Object.assign((db: Db) => addAdmin(db), {
  templateEnv: ADMIN_TEMPLATE_ENV,
});

/**
 * A `prepare` for startServer/prepareStoreFolder that adds the test admin (and runs `then`, for
 * the test's own data). Without `then`, a folder under the test runner starts as a copy of the
 * run's template with the admin (ADMIN_TEMPLATE_ENV) instead.
 */
export function withAdmin(then?: (db: Db) => Promise<void>): (db: Db) => Promise<void> {
  if (!then) return ADMIN_ONLY;
  return async (db: Db) => {
    await addAdmin(db);
    await then(db);
  };
}

/** A plain-HTTP visitor signed in as `who` (the test admin by default). */
export async function adminVisitor(
  baseUrl: string,
  who: { email: string; password: string } = ADMIN,
): Promise<Visitor> {
  const visitor = new Visitor(baseUrl);
  const answer = await visitor.post('/admin/login', {
    intent: 'sign-in',
    email: who.email,
    password: who.password,
  });
  if (answer.status !== 303 || !visitor.cookies.has('vitrine_session')) {
    throw new Error(`Sign-in failed: ${answer.status} ${answer.text.slice(0, 200)}`);
  }
  return visitor;
}

/**
 * The test admin of a server started without one, created over HTTP with the one-time setup code
 * the server printed, as on a store's first day, and signed in. Cheaper than `withAdmin`, which
 * opens the store's folder before the server starts (a second or so of CPU).
 */
export async function firstAdminVisitor(server: TestServer): Promise<Visitor> {
  const setupCode = /"setupCode":"([A-Z0-9-]+)"/.exec(server.output())?.[1];
  if (!setupCode) throw new Error('The server printed no setup code: it has an admin already');
  const visitor = new Visitor(server.url);
  const answer = await visitor.post('/admin/login', {
    intent: 'create-admin',
    setupCode,
    ...ADMIN,
  });
  if (answer.status !== 303 || !visitor.cookies.has('vitrine_session')) {
    throw new Error(`Creating the admin failed: ${answer.status} ${visibleText(answer.text)}`);
  }
  return visitor;
}

/**
 * A Chromium page on the admin's `path`, already signed in as `who`: the session of a sign-in over
 * HTTP, handed to the page as its cookie. For the tests of a screen; a sign-in through the form
 * (`signIn`, and tests/e2e/admin-auth.test.ts) costs two more pages, the form's and the
 * dashboard's.
 */
export async function signedInPage(
  browser: Browser,
  baseUrl: string,
  path: string,
  viewport?: Viewport,
  who: { email: string; password: string } = ADMIN,
): Promise<{ page: BrowserPage; problems: string[] }> {
  const [staff, opened] = await Promise.all([
    adminVisitor(baseUrl, who),
    openPage(browser, 'about:blank', viewport),
  ]);
  await opened.page
    .context()
    .addCookies([...staff.cookies].map(([name, value]) => ({ name, value, url: baseUrl })));
  await opened.page.goto(`${baseUrl}${path}`, { waitUntil: 'networkidle' });
  // A click before React takes over does nothing (a dialog's button never opens it).
  await waitForHydration(opened.page);
  return opened;
}

/** Signs a Chromium page in through the form, as staff do, and waits for the dashboard. */
export async function signIn(
  page: BrowserPage,
  baseUrl: string,
  who: { email: string; password: string } = ADMIN,
): Promise<void> {
  await page.goto(`${baseUrl}/admin/login`);
  await page.getByLabel('E-mail').fill(who.email);
  await page.getByLabel('Senha').fill(who.password);
  await page.getByRole('button', { name: 'Entrar no painel' }).click();
  await page.waitForURL(`${baseUrl}/admin`);
  // The address changes as the navigation commits; the admin's layout renders right after.
  await page.locator('main#conteudo').waitFor();
}

/**
 * Saves the store's settings through the admin's settings form, as staff would: the sample
 * store's settings with `changes` (each call starts again from the sample store, it does not add
 * to the last). Lets one server serve blocks of tests that need different settings, instead of a
 * server per block (each costs seconds of CPU to start).
 */
export async function saveSampleSettings(
  admin: Visitor,
  changes: Partial<StoreSettings> = {},
): Promise<void> {
  const values = settingsFormValues({ ...defaultSettings(), ...SAMPLE_SETTINGS, ...changes });
  // Unticked boxes send nothing, as in the page.
  const form = SETTINGS_FORM_FIELDS.filter(
    (spec) => spec.kind !== 'checkbox' || values[spec.key] !== '',
  ).map((spec): [string, string] => [spec.key, values[spec.key] ?? '']);
  const answer = await admin.post('/admin/settings', form);
  if (answer.status !== 303) {
    throw new Error(`Saving the settings answered ${answer.status}: ${visibleText(answer.text)}`);
  }
}
