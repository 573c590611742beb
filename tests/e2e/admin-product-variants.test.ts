import { parse } from 'csv-parse/sync';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { ADMIN, withAdmin } from '../support/admin';
import { seriousAxeViolations } from '../support/axe';
import { openPage, VIEWPORTS } from '../support/browser';
import { useStoreAndBrowser } from '../support/fixtures';

async function signedIn(
  store: ReturnType<typeof useStoreAndBrowser>,
  viewport: { width: number; height: number },
) {
  const { page, problems } = await openPage(
    store.browser,
    `${store.server.url}/admin/login?redirectTo=${encodeURIComponent('/admin/products')}`,
    viewport,
  );
  await page.getByLabel('E-mail').fill(ADMIN.email);
  await page.getByLabel('Senha').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Entrar no painel' }).click();
  await page.waitForURL(`${store.server.url}/admin/products`);
  await page.getByRole('heading', { name: 'Produtos', level: 1 }).waitFor();
  return { page, problems };
}

/** Fills the product's own fields, then its options and their values, and generates the grid. */
async function describeTShirt(form: Locator, options: [string, string[]][]) {
  await form.getByLabel('Nome', { exact: true }).fill('Camiseta Básica Algodão');
  await form.getByLabel('Descrição').fill('Camiseta 100% algodão.');
  await form.getByLabel('Preço (R$)', { exact: true }).fill('59,90');
  await form.getByLabel('Categoria', { exact: true }).selectOption({ label: 'Acessórios' });
  await form
    .getByLabel('Adicionar imagens por endereço')
    .fill('/sample/caixa-de-som-portatil-1.svg');
  for (const [index, [name, values]] of options.entries()) {
    await form.getByRole('button', { name: 'Adicionar opção' }).click();
    await form.getByLabel(`Nome da opção ${index + 1}`).fill(name);
    for (const [at, value] of values.entries()) {
      if (at > 0) await form.getByRole('button', { name: 'Adicionar valor' }).nth(index).click();
      await form.getByLabel(`Valor ${at + 1} de ${name}`, { exact: true }).fill(value);
    }
  }
  // A product with options has no stock of its own: each variant has.
  expect(await form.getByLabel('Quantidade em estoque').count()).toBe(0);
  await form.getByRole('button', { name: 'Gerar variantes' }).click();
}

const cell = (form: Locator, label: string, variant: string) =>
  form.getByLabel(`${label} de ${variant}`, { exact: true });

/** The product's rows of the admin's spreadsheet, each as { column: value }. */
async function exported(page: Page, url: string, name: string) {
  const response = await page.request.get(`${url}/admin/products/export.csv`);
  expect(response.status()).toBe(200);
  const [header, ...rows] = parse(await response.text(), {
    delimiter: ';',
    bom: true,
  }) as string[][];
  const records = rows.map((row) =>
    Object.fromEntries(header!.map((column, at) => [column, row[at]!])),
  );
  const first = records.findIndex((record) => record.nome === name);
  return records.filter((record) => record.id === records[first]!.id);
}

async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    await page.evaluate(() => window.innerWidth),
  );
}

describe('admin product variants in Chromium', () => {
  const store = useStoreAndBrowser({ prepare: withAdmin() });

  it('at 1280 px: a T-shirt in Tamanho × Cor, generated, edited in the grid, saved, listed', async () => {
    const { page, problems } = await signedIn(store, VIEWPORTS.desktop);
    await page.getByRole('link', { name: 'Adicionar produto' }).click();
    const dialog = page.getByRole('dialog', { name: 'Adicionar produto' });
    await dialog.getByLabel('Nome', { exact: true }).waitFor();
    await describeTShirt(dialog, [
      ['Tamanho', ['P', 'M']],
      ['Cor', ['Azul', 'Preto']],
    ]);
    await dialog.getByLabel('Cor de Azul').fill('#1d4ed8');
    const rows = dialog.getByRole('table', { name: 'Variantes' }).getByRole('row');
    // The header and the four combinations.
    await expect.poll(() => rows.count()).toBe(5);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await cell(dialog, 'Estoque', 'P / Azul').fill('3');
    await cell(dialog, 'Estoque', 'P / Preto').fill('-2');
    await cell(dialog, 'Estoque', 'M / Azul').fill('5');
    await cell(dialog, 'Estoque', 'M / Preto').fill('1');
    await cell(dialog, 'Preço (R$)', 'M / Preto').fill('64,90');
    await cell(dialog, 'Preço de (R$)', 'M / Preto').fill('79,90');
    await cell(dialog, 'SKU', 'P / Azul').fill('CAM-P-AZUL');
    await cell(dialog, 'Peso (g)', 'P / Azul').fill('180');
    await dialog.getByRole('button', { name: 'Salvar produto' }).click();
    // The mistake is told beside its cell, which gets focus; nothing was sent.
    await dialog.getByText('Não pode ser negativo.').waitFor();
    await expect
      .poll(() =>
        cell(dialog, 'Estoque', 'P / Preto').evaluate((el) => el === document.activeElement),
      )
      .toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await cell(dialog, 'Estoque', 'P / Preto').fill('0');
    await dialog.getByRole('button', { name: 'Salvar produto' }).click();
    await page.getByRole('status').getByText('Produto criado com sucesso!').last().waitFor();
    await dialog.waitFor({ state: 'hidden' });

    const row = page.getByRole('row').filter({ hasText: 'Camiseta Básica Algodão' });
    await row.getByText('9 · estoque baixo').waitFor();
    await row.getByText('4 variantes · 4 com estoque baixo').waitFor();

    const variants = await exported(page, store.server.url, 'Camiseta Básica Algodão');
    expect(
      variants.map((v) => [
        v.opcao1_nome,
        v.opcao1_valor,
        v.opcao2_nome,
        v.opcao2_valor,
        v.opcao2_cor,
        v.sku,
        v.estoque,
        v.preco_variante,
        v.preco_de,
        v.peso_g,
      ]),
    ).toEqual([
      ['Tamanho', 'P', 'Cor', 'Azul', '#1d4ed8', 'CAM-P-AZUL', '3', '', '', '180'],
      ['Tamanho', 'P', 'Cor', 'Preto', '', 'CAMISETA-BASICA-ALGODAO-P-PRETO', '0', '', '', ''],
      ['Tamanho', 'M', 'Cor', 'Azul', '#1d4ed8', 'CAMISETA-BASICA-ALGODAO-M-AZUL', '5', '', '', ''],
      [
        'Tamanho',
        'M',
        'Cor',
        'Preto',
        '',
        'CAMISETA-BASICA-ALGODAO-M-PRETO',
        '1',
        '64,90',
        '79,90',
        '',
      ],
    ]);

    // Editing: removing a value removes its variants; the others keep their data.
    await row.getByRole('link', { name: /^Editar/ }).click();
    const edit = page.getByRole('dialog', { name: 'Editar produto' });
    await cell(edit, 'Estoque', 'M / Preto').waitFor();
    await edit.getByRole('button', { name: 'Remover P', exact: true }).click();
    await expect
      .poll(() => edit.getByRole('table', { name: 'Variantes' }).getByRole('row').count())
      .toBe(3);
    // A picture per colour: every variant in Azul takes the product's first photo.
    await edit.getByLabel('Foto das variantes Azul').selectOption({ label: 'Foto 1' });
    expect(await cell(edit, 'Foto', 'M / Azul').inputValue()).toBe(
      '/sample/caixa-de-som-portatil-1.svg',
    );
    expect(await cell(edit, 'Foto', 'M / Preto').inputValue()).toBe('');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await edit.getByRole('button', { name: 'Salvar produto' }).click();
    await page.getByRole('status').getByText('Produto atualizado com sucesso!').last().waitFor();
    await row.getByText('6 · estoque baixo').waitFor();
    const after = await exported(page, store.server.url, 'Camiseta Básica Algodão');
    expect(
      after.map((v) => [v.opcao1_valor, v.opcao2_valor, v.sku, v.estoque, v.imagens_variante]),
    ).toEqual([
      ['M', 'Azul', 'CAMISETA-BASICA-ALGODAO-M-AZUL', '5', '/sample/caixa-de-som-portatil-1.svg'],
      ['M', 'Preto', 'CAMISETA-BASICA-ALGODAO-M-PRETO', '1', ''],
    ]);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('at 360 px: the editor and grid fit the phone, and save from the form’s own page', async () => {
    const { page, problems } = await signedIn(store, VIEWPORTS.mobile);
    await page.getByRole('link', { name: 'Adicionar produto' }).click();
    await page.waitForURL(`${store.server.url}/admin/products/new`);
    const form = page.locator('main form');
    await describeTShirt(form, [['Tamanho', ['P', 'G']]]);
    await cell(form, 'Estoque', 'P').fill('2');
    await cell(form, 'Estoque', 'G').fill('20');
    await expectNoSidewaysScroll(page);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Salvar produto' }).click();
    await page.waitForURL(`${store.server.url}/admin/products`);
    const item = page
      .getByRole('list', { name: 'Produtos' })
      .getByRole('listitem')
      .filter({ hasText: 'Camiseta Básica Algodão' });
    await item.getByText('22 em estoque').waitFor();
    await item.getByText('2 variantes · 1 com estoque baixo').waitFor();
    await expectNoSidewaysScroll(page);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
