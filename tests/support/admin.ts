import type { Page as BrowserPage } from 'playwright-core';

import type { Db } from '~/db/database.server';
import { createAdmin } from '~/modules/auth/index.server';

import { Visitor } from './visitor';

/** The admin that `withAdmin` creates. */
export const ADMIN = {
  email: 'gerente@loja.com.br',
  fullName: 'Gerente da Loja',
  password: 'senha-forte-123',
} as const;

/**
 * A `prepare` for startServer/prepareStoreFolder that adds the test admin (and runs `then`, for
 * the test's own data).
 */
export function withAdmin(then?: (db: Db) => Promise<void>) {
  return async (db: Db) => {
    const created = await createAdmin(db, ADMIN);
    if (!created.ok) throw new Error(created.error);
    await then?.(db);
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
