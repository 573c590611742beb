import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { signIn, withAdmin } from '../support/admin';
import { seriousAxeViolations } from '../support/axe';
import { openPage, VIEWPORTS } from '../support/browser';
import { useStoreAndBrowser } from '../support/fixtures';
import { sampleProduct } from '../support/sample';

const HEADSET = sampleProduct('Fone');

const store = useStoreAndBrowser({ prepare: withAdmin() });

async function toast(page: Page, message: string) {
  await page.getByRole('status').getByText(message, { exact: true }).last().waitFor();
}

/** Nothing sticks out sideways: the page is as wide as the window. */
async function fitsWidth(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

/** Problems apart from the 4xx answers some steps provoke on purpose (refused forms). */
function unexpected(problems: string[]): string[] {
  return problems.filter((problem) => !/HTTP 4\d\d|status of 4\d\d/.test(problem));
}

describe('admin coupons at 360 px', () => {
  it('are created, refused in pt-BR, edited, deactivated, deleted and exported', async () => {
    const url = store.server.url;
    const { page, problems } = await openPage(
      store.browser,
      `${url}/admin/login`,
      VIEWPORTS.mobile,
    );
    await signIn(page, url);
    await page.waitForLoadState('networkidle');
    // 'Cupons' is in the admin's menu (a drawer at this width): the page is reached by address.
    await page.goto(`${url}/admin/coupons`, { waitUntil: 'networkidle' });
    // The sample store's coupons are listed.
    const sample = page.getByRole('listitem').filter({ hasText: 'BEMVINDO10' });
    await sample.getByText('10%', { exact: true }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    // An empty code is caught before sending.
    await page.getByRole('button', { name: 'Novo cupom' }).click();
    const dialog = page.getByRole('dialog', { name: 'Novo cupom' });
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await dialog.getByText('Informe o código do cupom.').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    await dialog.getByLabel('Código').fill('verao15');
    await dialog.getByLabel('Tipo').selectOption({ label: 'Porcentagem' });
    await dialog.getByLabel('Desconto (%)').fill('15');
    await dialog.getByLabel('Só na primeira compra do cliente').check();
    // Found by typing, as in a catalogue of thousands, and chosen with the keyboard.
    await dialog.getByLabel('Buscar produto').fill(HEADSET.name);
    await dialog.getByText('1 produto encontrado.').waitFor();
    await dialog.getByLabel(HEADSET.name).focus();
    await page.keyboard.press('Space');
    expect(await dialog.getByLabel(HEADSET.name).isChecked()).toBe(true);
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Cupom criado com sucesso!');
    await dialog.waitFor({ state: 'hidden' });
    const card = page.getByRole('listitem').filter({ hasText: 'VERAO15' });
    await card.getByText('15%', { exact: true }).waitFor();
    expect(await card.getByText('Ativo', { exact: true }).first().isVisible()).toBe(true);
    expect(await fitsWidth(page)).toBe(true);

    // The sample's code, in other capitals, is the server's refusal beside the field.
    await page.getByRole('button', { name: 'Novo cupom' }).click();
    await dialog.getByLabel('Código').fill('BemVindo10');
    await dialog.getByLabel('Tipo').selectOption({ label: 'Frete grátis' });
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await dialog.getByText('Já existe um cupom com este código.').waitFor();
    // Another code goes through: a free-shipping coupon from R$ 150, never used, so deletable.
    await dialog.getByLabel('Código').fill('APAGAR');
    await dialog.getByLabel('Pedido mínimo em R$ (opcional)').fill('150');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Cupom criado com sucesso!');
    await dialog.waitFor({ state: 'hidden' });
    const free = page.getByRole('listitem').filter({ hasText: 'APAGAR' });
    await free.getByText('R$ 150,00').waitFor();

    // Editing: the saved values are in the form; a window on the store's clock.
    await card.getByRole('button', { name: 'Editar cupom VERAO15' }).click();
    const edit = page.getByRole('dialog', { name: 'Editar cupom VERAO15' });
    expect(await edit.getByLabel('Desconto (%)').inputValue()).toBe('15');
    expect(await edit.getByLabel(HEADSET.name).isChecked()).toBe(true);
    await edit.getByLabel('Desconto (%)').fill('20');
    await edit.getByLabel('Limite de usos (opcional)').fill('100');
    await edit.getByLabel('Início').fill('2020-01-01T08:00');
    await edit.getByLabel('Fim').fill('2099-12-31T23:59');
    await edit.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Cupom atualizado com sucesso!');
    await edit.waitFor({ state: 'hidden' });
    await card.getByText('20%', { exact: true }).waitFor();
    await card.getByText('De 01/01/2020 às 08:00 até 31/12/2099 às 23:59').waitFor();
    await card.getByText('0 de 100').waitFor();

    await card.getByRole('button', { name: 'Desativar cupom VERAO15' }).click();
    await toast(page, 'Cupom desativado: ele não vale mais na loja.');
    await card.getByText('Inativo', { exact: true }).waitFor();

    await free.getByRole('button', { name: 'Excluir cupom APAGAR' }).click();
    await page
      .getByRole('dialog', { name: 'Excluir cupom' })
      .getByRole('button', { name: 'Excluir' })
      .click();
    await toast(page, 'Cupom excluído com sucesso!');
    await free.waitFor({ state: 'detached' });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Exportar CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^cupons-\d{4}-\d{2}-\d{2}\.csv$/);
    // The browser is the run's shared one (tests/support/browser.ts): the file is copied here.
    const saved = join(await mkdtemp(join(tmpdir(), 'vitrine-coupons-')), 'cupons.csv');
    await download.saveAs(saved);
    const csv = (await readFile(saved, 'utf8')).replace(/^\uFEFF/, '');
    const lines = csv.trim().split('\r\n');
    expect(lines.map((line) => line.split(';')[0])).toEqual([
      'Código',
      'VERAO15',
      'BEMVINDO10',
      'FRETEGRATIS',
    ]);
    expect(lines[1]).toBe(
      'VERAO15;Porcentagem;20%;0,00;01/01/2020 08:00;31/12/2099 23:59;0;100;;Sim;1;0;Inativo;0;0,00',
    );
    expect(await seriousAxeViolations(page)).toEqual([]);

    // A coupon's orders are the orders list filtered by its code.
    await sample.getByRole('link', { name: '0 pedidos com o cupom BEMVINDO10' }).click();
    await page.waitForURL(`${url}/admin/orders?coupon=BEMVINDO10`);
    expect(await page.getByLabel('Cupom', { exact: true }).inputValue()).toBe('BEMVINDO10');
    await page.getByText('Nenhum pedido encontrado').waitFor();
    expect(await fitsWidth(page)).toBe(true);
    expect(unexpected(problems)).toEqual([]);
    await page.context().close();
  });
});
