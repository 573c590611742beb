import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { createAdmin } from '~/modules/auth/index.server';
import { putCategory, putProduct } from '~/modules/catalog/index.server';

import { ADMIN, adminVisitor, signedInPage, signIn, withAdmin } from '../support/admin';
import { seriousAxeViolations } from '../support/axe';
import { openPage, VIEWPORTS } from '../support/browser';
import { useStoreAndBrowser } from '../support/fixtures';
import { sampleProduct, sampleProductPath } from '../support/sample';
import { Visitor, visibleText } from '../support/visitor';

// Reviewed twice in the sample store (5 and 4 stars).
const HEADPHONES = sampleProduct('Fone de Ouvido');

// Categories of this test's own, so deleting them leaves the sample store alone.
const TOYS = '7e570000-0000-4000-8000-000000000001';
const GAMES = '7e570000-0000-4000-8000-000000000002';
const BOARD_GAMES = '7e570000-0000-4000-8000-000000000003';
const TOY_PRODUCTS = ['Pião de Madeira', 'Ioiô Clássico', 'Bola de Gude'];

const COLLEAGUE = { email: 'colega@loja.com.br', fullName: 'Colega', password: 'senha-colega-1' };

const VIEWPORT_CASES = Object.entries(VIEWPORTS);

/** Problems apart from the 4xx answers some steps provoke on purpose (refused forms). */
function unexpected(problems: string[]): string[] {
  return problems.filter((problem) => !/HTTP 4\d\d|status of 4\d\d/.test(problem));
}

/** The admin's screen at `path`, signed in (the form's journey is admin-auth.test.ts's). */
function adminPage(url: string, path: string, viewport: { width: number; height: number }) {
  return signedInPage(store.browser, url, path, viewport);
}

async function toast(page: Page, message: string) {
  await page.getByRole('status').getByText(message, { exact: true }).last().waitFor();
}

/** Nothing sticks out sideways: the page is as wide as the window. */
async function fitsWidth(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

const store = useStoreAndBrowser({
  prepare: withAdmin(async (db) => {
    await putCategory(db, { id: TOYS, name: 'Brinquedos', description: 'Para todas as idades.' });
    await putCategory(db, { id: GAMES, name: 'Jogos', description: null });
    await putCategory(db, { id: BOARD_GAMES, name: 'Jogos de Tabuleiro', description: null });
    for (const [index, name] of TOY_PRODUCTS.entries()) {
      await putProduct(db, {
        id: `7e570000-0000-4000-8000-0000000001${index}0`,
        name,
        description: 'Brinquedo de teste.',
        priceCents: 1990,
        stockQuantity: 10,
        categoryId: TOYS,
        imageUrls: [],
      });
    }
    // With these the catalogue passes what the review form's picker lists at once.
    for (let index = 1; index <= 25; index += 1) {
      await putProduct(db, {
        id: `7e570000-0000-4000-8000-0000000002${String(index).padStart(2, '0')}`,
        name: `Caderno Pautado ${String(index).padStart(2, '0')}`,
        description: 'Caderno de teste.',
        priceCents: 990,
        stockQuantity: 10,
        categoryId: null,
        imageUrls: [],
      });
    }
    const colleague = await createAdmin(db, COLLEAGUE);
    if (!colleague.ok) throw new Error(colleague.error);
  }),
});

describe('admin categories', () => {
  it.each(VIEWPORT_CASES)(
    'are created, checked, edited, selected for the home and deleted (%s)',
    async (viewportName, viewport) => {
      const { page, problems } = await adminPage(store.server.url, '/admin/categories', viewport);
      const name = `Papelaria ${viewportName}`;

      // An empty name is caught before sending; a name taken in other capitals by the server.
      await page.getByRole('button', { name: 'Adicionar categoria' }).click();
      const dialog = page.getByRole('dialog', { name: 'Adicionar categoria' });
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await dialog.getByText('Informe o nome da categoria.').waitFor();
      await dialog.getByLabel('Nome').fill('ÁUDIO');
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await dialog.getByText('Já existe uma categoria com este nome.').waitFor();
      await toast(page, 'Erro ao salvar categoria: Já existe uma categoria com este nome.');
      expect(await dialog.isVisible()).toBe(true);

      await dialog.getByLabel('Nome').fill(name);
      await dialog.getByLabel('Descrição (opcional)').fill('Cadernos e canetas.');
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await toast(page, 'Categoria criada com sucesso!');
      await dialog.waitFor({ state: 'hidden' });
      const card = page.getByRole('article', { name });
      await card.waitFor();
      expect(await card.innerText()).toContain('Cadernos e canetas.');
      expect(await card.innerText()).toContain('Nenhum produto');
      expect(await fitsWidth(page)).toBe(true);

      await card.getByRole('button', { name: `Editar categoria ${name}` }).click();
      const edit = page.getByRole('dialog', { name: 'Editar categoria' });
      expect(await edit.getByLabel('Nome').inputValue()).toBe(name);
      await edit.getByLabel('Descrição (opcional)').fill('Cadernos, canetas e mochilas.');
      await edit.getByRole('button', { name: 'Salvar' }).click();
      await toast(page, 'Categoria atualizada com sucesso!');
      // The toast may come from the layout's reload instead: the dialog closing shows the form got
      // the answer.
      await edit.waitFor({ state: 'hidden' });
      await card.locator('p').getByText('Cadernos, canetas e mochilas.').waitFor();

      // Selected: the home offers only the selected categories as filters, and of them those with
      // a product (this one has none yet: no pill leads to an empty list).
      const selected = card.getByRole('switch', { name: /Selecionada/ });
      expect(await selected.getAttribute('aria-checked')).toBe('false');
      await selected.click();
      await toast(page, 'Categoria atualizada com sucesso!');
      await expect.poll(() => selected.getAttribute('aria-checked')).toBe('true');
      const home = await store.browser.newPage();
      await home.goto(`${store.server.url}/`);
      const pills = await home.getByRole('navigation', { name: 'Categorias' }).innerText();
      expect(pills).not.toContain(name);
      expect(pills).not.toContain('Informática');
      expect(pills).toContain('Todos os produtos');
      await home.close();

      await page.reload({ waitUntil: 'networkidle' });
      expect(await selected.getAttribute('aria-checked')).toBe('true');
      await selected.click();
      await expect.poll(() => selected.getAttribute('aria-checked')).toBe('false');

      await card.getByRole('button', { name: `Excluir categoria ${name}` }).click();
      const confirm = page.getByRole('dialog', { name: 'Excluir categoria' });
      expect(await confirm.innerText()).toContain('Tem certeza que deseja excluir esta categoria?');
      expect(await confirm.innerText()).not.toContain('produto');
      await confirm.getByRole('button', { name: 'Excluir' }).click();
      await toast(page, 'Categoria excluída com sucesso!');
      await card.waitFor({ state: 'detached' });
      expect(unexpected(problems)).toEqual([]);
      await page.context().close();
    },
  );

  it('with products, move them to another category or leave them without one', async () => {
    // At 1280 the toys move to Jogos; at 360 Jogos goes, its (now) three products uncategorised.
    const desktop = await adminPage(store.server.url, '/admin/categories', VIEWPORTS.desktop);
    const toys = desktop.page.getByRole('article', { name: 'Brinquedos' });
    expect(await toys.innerText()).toContain('3 produtos');
    await toys.getByRole('button', { name: 'Excluir categoria Brinquedos' }).click();
    let confirm = desktop.page.getByRole('dialog', { name: 'Excluir categoria' });
    expect(await confirm.innerText()).toContain('Esta categoria tem 3 produtos.');
    await confirm.getByLabel('Categoria de destino').selectOption({ label: 'Jogos' });
    expect(await confirm.getByLabel('Mover para outra categoria').isChecked()).toBe(true);
    await confirm.getByRole('button', { name: 'Excluir' }).click();
    await toast(desktop.page, 'Categoria excluída com sucesso!');
    await toys.waitFor({ state: 'detached' });
    const games = desktop.page.getByRole('article', { name: 'Jogos', exact: true });
    await games.getByText('3 produtos', { exact: true }).waitFor();
    expect(unexpected(desktop.problems)).toEqual([]);
    await desktop.page.context().close();

    const mobile = await adminPage(store.server.url, '/admin/categories', VIEWPORTS.mobile);
    const mobileGames = mobile.page.getByRole('article', { name: 'Jogos', exact: true });
    await mobileGames.getByRole('button', { name: 'Excluir categoria Jogos' }).click();
    confirm = mobile.page.getByRole('dialog', { name: 'Excluir categoria' });
    expect(await confirm.innerText()).toContain('Esta categoria tem 3 produtos.');
    expect(await fitsWidth(mobile.page)).toBe(true);
    // No choice made: the browser asks for one before anything is sent.
    await confirm.getByRole('button', { name: 'Excluir' }).click();
    expect(await confirm.isVisible()).toBe(true);
    await confirm.getByLabel('Deixar os produtos sem categoria').check();
    await confirm.getByRole('button', { name: 'Excluir' }).click();
    await toast(mobile.page, 'Categoria excluída com sucesso!');
    await mobileGames.waitFor({ state: 'detached' });
    expect(unexpected(mobile.problems)).toEqual([]);
    await mobile.page.context().close();

    const catalogue = await new Visitor(store.server.url).get('/products?q=pião');
    expect(visibleText(catalogue.text)).toContain('Pião de Madeira');
  });

  it('work before JavaScript loads: added from the dialog, then deleted (360 px)', async () => {
    const context = await store.browser.newContext({
      viewport: VIEWPORTS.mobile,
      locale: 'pt-BR',
      javaScriptEnabled: false,
    });
    const page = await context.newPage();
    await signIn(page, store.server.url);
    await page.goto(`${store.server.url}/admin/categories`);

    // The dialog opens by itself (invoker commands) and posts a plain form.
    await page.getByRole('button', { name: 'Adicionar categoria' }).click();
    const dialog = page.getByRole('dialog', { name: 'Adicionar categoria' });
    await dialog.getByLabel('Nome').fill('Sem Script');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await page.getByRole('article', { name: 'Sem Script' }).waitFor();
    expect(await page.getByText('Categoria criada com sucesso!').count()).toBe(1);
    // Said once: the next page does not repeat it.
    await page.goto(`${store.server.url}/admin/categories`);
    expect(await page.getByText('Categoria criada com sucesso!').count()).toBe(0);

    await page.getByRole('button', { name: 'Excluir categoria Sem Script' }).click();
    await page
      .getByRole('dialog', { name: 'Excluir categoria' })
      .getByRole('button', { name: 'Excluir' })
      .click();
    await page.getByText('Categoria excluída com sucesso!').waitFor();
    expect(await page.getByRole('article', { name: 'Sem Script' }).count()).toBe(0);
    await context.close();
  });

  it('are refused over HTTP without a choice for their products, a bad id or a sign-in', async () => {
    const admin = await adminVisitor(store.server.url);
    const withProducts = await admin.post('/admin/categories', {
      intent: 'delete',
      id: '5a3b1e00-0000-4000-8000-000000000c01',
    });
    expect(withProducts.status).toBe(409);
    expect(visibleText(withProducts.text)).toContain(
      'Erro ao excluir categoria: Esta categoria tem 3 produtos.',
    );
    const junkId = await admin.post('/admin/categories', { intent: 'delete', id: "1' or 1=1" });
    expect(junkId.status).toBe(400);
    const unknown = await admin.post('/admin/categories', {
      intent: 'update',
      id: '5a3b1e00-0000-4000-8000-00000000ffff',
      name: 'Nova',
    });
    expect(unknown.status).toBe(404);
    const put = await admin.request('/admin/categories', { method: 'PUT' });
    expect(put.status).toBe(405);

    const stranger = await new Visitor(store.server.url).post('/admin/categories', {
      intent: 'delete',
      id: '5a3b1e00-0000-4000-8000-000000000c01',
    });
    expect(stranger.status).toBe(302);
    expect(stranger.location).toMatch(/^\/admin\/login/);
    // The sample category is still there, with its products.
    expect(visibleText((await admin.get('/admin/categories')).text)).toContain('Áudio');
  });
});

describe('admin reviews', () => {
  it.each(VIEWPORT_CASES)(
    'are added and deleted, and the product page follows (%s)',
    async (viewportName, viewport) => {
      const { page, problems } = await adminPage(store.server.url, '/admin/reviews', viewport);
      const customer = `Cliente ${viewportName}`;
      const productPage = sampleProductPath(HEADPHONES.name);

      await page.getByRole('button', { name: 'Adicionar avaliação' }).click();
      const dialog = page.getByRole('dialog', { name: 'Adicionar avaliação' });
      expect(await dialog.getByLabel('Avaliação').inputValue()).toBe('5');
      await dialog.getByRole('button', { name: 'Adicionar' }).click();
      await dialog.getByText('Selecione um produto.').waitFor();
      await dialog.getByText('Informe o nome do cliente.').waitFor();
      expect(await fitsWidth(page)).toBe(true);

      // The catalogue is bigger than the picker's first list: typing narrows it to the headphones.
      const picker = dialog.getByRole('group', { name: 'Produto' });
      expect(await picker.getByRole('radio').count()).toBe(30);
      await dialog.getByText(/Mostrando 30 de \d+ produtos/).waitFor();
      await dialog.getByLabel('Buscar produto').fill('fone ouvido');
      await dialog.getByText('1 produto encontrado.').waitFor();
      expect(await picker.getByRole('radio').count()).toBe(1);
      await picker.getByRole('radio', { name: HEADPHONES.name }).check();
      await dialog.getByLabel('Nome do cliente').fill(customer);
      await dialog.getByLabel('Avaliação').selectOption({ label: '2 estrelas' });
      await dialog.getByLabel('Comentário (Opcional)').fill('Chegou com a caixa amassada.');
      await dialog.getByRole('button', { name: 'Adicionar' }).click();
      await toast(page, 'Avaliação adicionada com sucesso!');
      await dialog.waitFor({ state: 'hidden' });
      const card = page.getByRole('article', { name: `Avaliação de ${customer}` });
      const text = await card.innerText();
      expect(text).toContain(HEADPHONES.name);
      expect(text).toContain('“Chegou com a caixa amassada.”');
      expect(text).toMatch(/\d{1,2} de \p{L}+ de \d{4}/u);
      expect(await card.getByText('2 de 5 estrelas').count()).toBe(1);

      // (5 + 4 + 2) / 3 = 3.7, three reviews.
      const shopper = new Visitor(store.server.url);
      let product = visibleText((await shopper.get(productPage)).text);
      expect(product).toContain(customer);
      expect(product).toContain('Avaliação 3,7 de 5 (3 avaliações)');

      await card.getByRole('button', { name: `Excluir avaliação de ${customer}` }).click();
      const confirm = page.getByRole('dialog', { name: 'Excluir avaliação' });
      expect(await confirm.innerText()).toContain('Tem certeza que deseja excluir esta avaliação?');
      await confirm.getByRole('button', { name: 'Excluir' }).click();
      await toast(page, 'Avaliação excluída com sucesso!');
      await card.waitFor({ state: 'detached' });

      product = visibleText((await shopper.get(productPage)).text);
      expect(product).not.toContain(customer);
      expect(product).toContain('Avaliação 4,5 de 5 (2 avaliações)');
      expect(unexpected(problems)).toEqual([]);
      await page.context().close();
    },
  );

  it('refuses a review for a product that does not exist, and a delete of a bad id', async () => {
    const admin = await adminVisitor(store.server.url);
    const ghost = await admin.post('/admin/reviews', {
      intent: 'create',
      id: crypto.randomUUID(),
      productId: '5a3b1e00-0000-4000-8000-00000000ffff',
      customerName: 'Ana',
      rating: '5',
    });
    expect(ghost.status).toBe(409);
    expect(visibleText(ghost.text)).toContain('Erro ao salvar avaliação');
    const badRating = await admin.post('/admin/reviews', {
      intent: 'create',
      id: crypto.randomUUID(),
      productId: HEADPHONES.id,
      customerName: 'Ana',
      rating: '9',
    });
    expect(badRating.status).toBe(400);
    const junk = await admin.post('/admin/reviews', { intent: 'delete', id: 'abc' });
    expect(junk.status).toBe(400);
    const page = await admin.get('/admin/reviews?pagina=banana');
    expect(page.status).toBe(200);

    // The picker's search: matching products only, and nothing for a visitor.
    const found = await admin.get('/admin/products/options?q=pautado%2009');
    expect(found.status).toBe(200);
    expect(JSON.parse(found.text)).toEqual({
      options: [{ id: '7e570000-0000-4000-8000-000000000209', name: 'Caderno Pautado 09' }],
      total: 1,
    });
    const odd = await admin.get('/admin/products/options?q=%00%25%5C');
    expect(odd.status).toBe(200);
    const visitor = await new Visitor(store.server.url).get('/admin/products/options?q=fone');
    expect(visitor.status).toBe(302);
    expect(visitor.text).not.toContain('Fone');
  });
});

describe('admin users', () => {
  it.each(VIEWPORT_CASES)(
    'are created, deactivated and reactivated; a new admin changes their password (%s)',
    async (viewportName, viewport) => {
      const { page, problems } = await adminPage(store.server.url, '/admin/users', viewport);
      const email = `novo-${viewportName}@loja.com.br`;
      const fullName = `Novo ${viewportName}`;
      await page.getByRole('heading', { name: 'Usuários administradores' }).waitFor();

      // Oneself: no button, and why.
      expect(
        await page
          .getByText('Você não pode desativar a sua própria conta.')
          .filter({ visible: true })
          .count(),
      ).toBe(1);
      expect(await page.getByRole('button', { name: `Desativar ${ADMIN.fullName}` }).count()).toBe(
        0,
      );

      const form = page.getByRole('region', { name: 'Novo administrador' });
      await form.getByLabel('Nome').fill(fullName);
      await form.getByLabel('E-mail').fill(email);
      await form.getByLabel('Senha inicial').fill('curta');
      await form.getByRole('button', { name: 'Criar administrador' }).click();
      await form.getByText('A senha deve ter entre 8 e 128 caracteres.').waitFor();
      await form.getByLabel('Senha inicial').fill('senha-inicial-1');
      await form.getByRole('button', { name: 'Criar administrador' }).click();
      await toast(page, 'Administrador criado com sucesso!');
      expect(await form.getByLabel('E-mail').inputValue()).toBe('');

      // The same e-mail again, in capitals.
      await form.getByLabel('Nome').fill('Outra pessoa');
      await form.getByLabel('E-mail').fill(email.toUpperCase());
      await form.getByLabel('Senha inicial').fill('senha-inicial-2');
      await form.getByRole('button', { name: 'Criar administrador' }).click();
      await toast(page, 'Erro ao criar administrador: Já existe um administrador com este e-mail.');

      const row = page.locator(viewportName === 'mobile' ? 'li' : 'tr').filter({ hasText: email });
      await row.getByText('Ativo', { exact: true }).waitFor();
      expect(await row.innerText()).toMatch(/ID: [0-9a-f]{8}\.\.\./);
      expect(await row.innerText()).toContain('Administrador');
      expect(await row.innerText()).toMatch(/\d{2}\/\d{2}\/\d{4}/);
      expect(await fitsWidth(page)).toBe(true);

      await row.getByRole('button', { name: `Desativar ${fullName}` }).click();
      const confirm = page.getByRole('dialog', { name: 'Desativar administrador' });
      await confirm.getByRole('button', { name: 'Desativar' }).click();
      await toast(page, 'Administrador desativado com sucesso!');
      await row.getByText('Inativo', { exact: true }).waitFor();
      await row.getByRole('button', { name: `Ativar ${fullName}` }).click();
      await toast(page, 'Administrador ativado com sucesso!');
      await row.getByText('Ativo', { exact: true }).waitFor();
      expect(unexpected(problems)).toEqual([]);
      await page.context().close();

      // The new admin signs in, changes their own password and signs in with it through the form.
      const own = await signedInPage(store.browser, store.server.url, '/admin/users', viewport, {
        email,
        password: 'senha-inicial-1',
      });
      const password = own.page.getByRole('region', { name: 'Alterar minha senha' });
      await password.getByLabel('Senha atual').fill('senha-errada-9');
      await password.getByLabel('Nova senha', { exact: true }).fill('senha-nova-123');
      await password.getByLabel('Confirmar nova senha').fill('senha-nova-123');
      await password.getByRole('button', { name: 'Alterar senha' }).click();
      await toast(own.page, 'Erro ao alterar a senha: A senha atual está incorreta.');
      await password.getByLabel('Senha atual').fill('senha-inicial-1');
      await password.getByLabel('Confirmar nova senha').fill('senha-nova-124');
      await password.getByRole('button', { name: 'Alterar senha' }).click();
      await password.getByText('As senhas não conferem.').waitFor();
      await password.getByLabel('Confirmar nova senha').fill('senha-nova-123');
      await password.getByRole('button', { name: 'Alterar senha' }).click();
      await toast(own.page, 'Senha alterada com sucesso!');
      // Still signed in here: the session that changed it stays.
      await own.page.reload();
      expect(new URL(own.page.url()).pathname).toBe('/admin/users');
      await own.page.context().close();

      const again = await openPage(store.browser, `${store.server.url}/admin/login`, viewport);
      await signIn(again.page, store.server.url, { email, password: 'senha-nova-123' });
      expect(new URL(again.page.url()).pathname).toBe('/admin');
      expect(unexpected([...own.problems, ...again.problems])).toEqual([]);
      await again.page.context().close();
    },
    // Two admins' flows with five password checks (scrypt), which a loaded CI machine slows most.
    120_000,
  );

  it('signs a deactivated admin out on their next request, and never deactivates oneself', async () => {
    const admin = await adminVisitor(store.server.url);
    const colleague = await adminVisitor(store.server.url, COLLEAGUE);
    // Each one's id, from the hidden field of the other's 'Desativar' form on the users page.
    const idAfter = (html: string, email: string) =>
      new RegExp(`${email.replace(/\./g, '\\.')}[\\s\\S]*?name="id" value="([0-9a-f-]{36})"`).exec(
        html,
      )?.[1];
    const colleagueId = idAfter((await admin.get('/admin/users')).text, COLLEAGUE.email);
    const adminId = idAfter((await colleague.get('/admin/users')).text, ADMIN.email);
    expect(colleagueId).toMatch(/^[0-9a-f-]{36}$/);
    expect(adminId).toMatch(/^[0-9a-f-]{36}$/);

    const self = await admin.post('/admin/users', {
      intent: 'set-active',
      id: adminId!,
      active: 'false',
    });
    expect(self.status).toBe(409);
    expect(visibleText(self.text)).toContain('Você não pode desativar a sua própria conta.');

    expect((await colleague.get('/admin')).status).toBe(200);
    const off = await admin.post('/admin/users', {
      intent: 'set-active',
      id: colleagueId!,
      active: 'false',
    });
    expect(off.status).toBe(303);
    const next = await colleague.get('/admin');
    expect(next.status).toBe(302);
    expect(next.location).toBe('/admin/login');
    // Deactivated, the password no longer opens the admin.
    await expect(adminVisitor(store.server.url, COLLEAGUE)).rejects.toThrow(/Sign-in failed: 401/);

    const on = await admin.post('/admin/users', {
      intent: 'set-active',
      id: colleagueId!,
      active: 'true',
    });
    expect(on.status).toBe(303);
    expect((await (await adminVisitor(store.server.url, COLLEAGUE)).get('/admin')).status).toBe(
      200,
    );
  });
});

describe('admin screens: accessibility at both widths', () => {
  const screens = [
    ['categories', '/admin/categories', 'Adicionar categoria'],
    ['coupons', '/admin/coupons', 'Novo cupom'],
    ['reviews', '/admin/reviews', 'Adicionar avaliação'],
    ['users', '/admin/users', null],
  ] as const;
  const cases = screens.flatMap((screen) =>
    VIEWPORT_CASES.map(([name, size]) => [screen[0], name, screen[1], screen[2], size] as const),
  );

  it.each(cases)('%s at %s width', async (_screen, _name, path, dialogButton, size) => {
    const { page, problems } = await adminPage(store.server.url, path, size);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await fitsWidth(page)).toBe(true);
    if (dialogButton) {
      await page.getByRole('button', { name: dialogButton }).click();
      await page.getByRole('dialog', { name: dialogButton }).waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
    }
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
