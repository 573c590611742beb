import { randomUUID } from 'node:crypto';

import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';

import { adminVisitor, signedInPage, withAdmin } from '../support/admin';
import { seriousAxeViolations } from '../support/axe';
import { openPage, VIEWPORTS } from '../support/browser';
import { useStoreAndBrowser } from '../support/fixtures';
import { publicFileSrc, sampleProduct } from '../support/sample';
import { visibleText, Visitor } from '../support/visitor';

const MOUSE = sampleProduct('Mouse Sem Fio');
const MOUSE_IMAGES = MOUSE.imageUrls!;
const KEYBOARD = sampleProduct('Teclado Mecânico');
const CHARGER = sampleProduct('Carregador Rápido');

/** A PNG made here, as a phone's photo would arrive (any size; noise makes it big). */
async function pngFile(width: number, height: number, noise = false) {
  const image = noise
    ? sharp(
        Buffer.from(Array.from({ length: width * height * 3 }, () => (Math.random() * 256) | 0)),
        {
          raw: { width, height, channels: 3 },
        },
      )
    : sharp({ create: { width, height, channels: 3, background: { r: 30, g: 90, b: 200 } } });
  return image.png().toBuffer();
}

async function toast(page: Page, message: string) {
  await page.getByRole('status').getByText(message, { exact: true }).last().waitFor();
}

/**
 * Chromium signed in and on `path` of the admin. The sign-in form sends it straight there: a
 * navigation away from a page still loading would cut its requests off (and fail the test).
 */
async function adminPage(
  store: ReturnType<typeof useStoreAndBrowser>,
  viewport: { width: number; height: number },
  path = '/admin/products',
) {
  // Signed in over HTTP: the form's journey is admin-auth.test.ts's.
  const { page, problems } = await signedInPage(store.browser, store.server.url, path, viewport);
  await page.getByRole('heading', { name: 'Produtos', level: 1 }).waitFor();
  return { page, problems };
}

/** A product's page in the store, as a shopper opens it (its own browser, no admin cookie). */
async function storefront(store: ReturnType<typeof useStoreAndBrowser>, id: string) {
  return openPage(store.browser, `${store.server.url}/product/${id}`, VIEWPORTS.desktop);
}

/** Nothing is wider than the phone's screen (a table must scroll in its own box, or be cards). */
async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    await page.evaluate(() => window.innerWidth),
  );
}

// One store for the file: the tests over HTTP make their own products (a server costs seconds of
// CPU to start).
const store = useStoreAndBrowser({ prepare: withAdmin() });

describe('admin products in Chromium', () => {
  it('at 1280 px: adds a product with an uploaded photo in the dialog, and the store shows it', async () => {
    const { page, problems } = await adminPage(store, VIEWPORTS.desktop);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByRole('link', { name: 'Adicionar produto' }).click();
    const dialog = page.getByRole('dialog', { name: 'Adicionar produto' });
    await dialog.getByLabel('Nome').waitFor();
    expect(page.url()).toBe(`${store.server.url}/admin/products`);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await dialog.getByLabel('Nome').fill('Luminária de Mesa LED');
    await dialog.getByLabel('Descrição').fill('Luminária articulada com três tons de luz.');
    await dialog.getByLabel('Preço (R$)').fill('189,90');
    await dialog.getByLabel('Quantidade em estoque').fill('7');
    await dialog.getByLabel('Categoria', { exact: true }).selectOption({ label: 'Acessórios' });
    await dialog.getByLabel('Enviar imagens do aparelho').setInputFiles({
      name: 'luminaria.png',
      mimeType: 'image/png',
      buffer: await pngFile(1500, 1000),
    });
    await dialog.getByRole('button', { name: 'Retirar luminaria.png' }).waitFor();
    await dialog.getByRole('button', { name: 'Salvar produto' }).dblclick();
    await toast(page, 'Produto criado com sucesso!');
    await dialog.waitFor({ state: 'hidden' });

    const row = page.getByRole('row').filter({ hasText: 'Luminária de Mesa LED' });
    await row.waitFor();
    // The double click made one product.
    expect(await row.count()).toBe(1);
    const href = await row.getByRole('link', { name: /^Editar/ }).getAttribute('href');
    const id = /\/admin\/products\/([0-9a-f-]{36})/.exec(href ?? '')![1]!;
    expect(problems).toEqual([]);
    await page.context().close();

    const shop = await storefront(store, id);
    await shop.page.getByRole('heading', { name: 'Luminária de Mesa LED' }).waitFor();
    expect(await shop.page.locator('main .product-price').first().textContent()).toBe('R$ 189,90');
    const image = shop.page
      .getByRole('img', { name: 'Luminária de Mesa LED', exact: true })
      .first();
    const src = await image.getAttribute('src');
    expect(src).toMatch(/^\/media\/[0-9a-f-]{36}-1280\.webp$/);
    const base = src!.replace(/-1280\.webp$/, '');
    expect(await image.getAttribute('srcset')).toBe(
      `${base}-320.webp 320w, ${base}-640.webp 640w, ${base}-1280.webp 1280w`,
    );
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

    const file = await fetch(`${store.server.url}${base}-640.webp`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/webp');
    expect(file.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // A file's headers, not a page's.
    expect(file.headers.get('content-security-policy')).toBeNull();
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    const etag = file.headers.get('etag');
    const bytes = new Uint8Array(await file.arrayBuffer());
    expect((await sharp(bytes).metadata()).width).toBe(640);
    const again = await fetch(`${store.server.url}${base}-640.webp`, {
      headers: { 'If-None-Match': etag! },
    });
    expect(again.status).toBe(304);
    expect(shop.problems).toEqual([]);
    await shop.page.context().close();
  });

  it('at 1280 px: edits a price typed as 1.234,56, and the store shows R$ 1.234,56', async () => {
    const { page, problems } = await adminPage(store, VIEWPORTS.desktop, '/admin/products?q=mouse');
    const row = page.getByRole('row').filter({ hasText: MOUSE.name });
    await row.getByRole('link', { name: /^Editar/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Editar produto' });
    const price = dialog.getByLabel('Preço (R$)');
    await price.waitFor();
    // The form starts from the product as stored.
    expect(await dialog.getByLabel('Nome').inputValue()).toBe(MOUSE.name);
    expect(
      await dialog.getByRole('list', { name: 'Ordem das imagens' }).getByRole('listitem').count(),
    ).toBe(MOUSE_IMAGES.length);
    // The store's own pictures are shown as pictures: no internal path in a box or beside them.
    expect(await dialog.getByLabel('Adicionar imagens por endereço').inputValue()).toBe('');
    expect(await dialog.getByRole('list', { name: 'Ordem das imagens' }).innerText()).not.toContain(
      '/sample/',
    );

    // A mistake first: the field says what is wrong, and nothing is saved.
    await price.fill('12,345');
    await dialog.getByRole('button', { name: 'Salvar produto' }).click();
    await dialog.getByText('Use no máximo duas casas decimais (centavos).').waitFor();
    expect(await price.evaluate((input) => input === document.activeElement)).toBe(true);
    expect(await price.getAttribute('aria-invalid')).toBe('true');

    await price.fill('1.234,56');
    // The second image becomes the main one, with the keyboard.
    const order = dialog.getByRole('list', { name: 'Ordem das imagens' });
    await order.getByRole('button', { name: 'Subir a imagem 2' }).focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => order.getByRole('listitem').first().getByRole('img').getAttribute('src'))
      .toContain(MOUSE_IMAGES[1]!);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(
      'Descer a imagem 1',
    );
    await dialog.getByRole('button', { name: 'Salvar produto' }).click();
    await toast(page, 'Produto atualizado com sucesso!');
    await dialog.waitFor({ state: 'hidden' });
    await row.getByText('R$ 1.234,56').waitFor();
    expect(problems).toEqual([]);
    await page.context().close();

    const shop = await storefront(store, MOUSE.id);
    // The price of this product (the sample monitor, shown among others, costs the same).
    expect(await shop.page.locator('main .product-price').first().textContent()).toBe(
      'R$ 1.234,56',
    );
    expect(
      await shop.page.locator('meta[property="product:price:amount"]').getAttribute('content'),
    ).toBe('1234.56');
    expect(
      await shop.page
        .getByRole('img', { name: MOUSE.name, exact: true })
        .first()
        .getAttribute('src'),
    ).toMatch(publicFileSrc(MOUSE_IMAGES[1]!));
    expect(shop.problems).toEqual([]);
    await shop.page.context().close();
  });

  it('at 1280 px: searches, and deletes only after confirming', async () => {
    const { page, problems } = await adminPage(store, VIEWPORTS.desktop);
    await page.getByRole('searchbox', { name: 'Buscar produtos' }).fill('carregador');
    await page.getByRole('button', { name: 'Buscar' }).click();
    await page.waitForURL(`${store.server.url}/admin/products?q=carregador`);
    // The charger, and the fone whose description says 'carregamento' (the same Portuguese stem).
    await page.getByText('2 produtos encontrados para "carregador"').waitFor();
    expect(await page.locator('tbody tr').count()).toBe(2);

    const row = page.getByRole('row').filter({ hasText: CHARGER.name });
    await row.getByRole('button', { name: `Excluir ${CHARGER.name}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Excluir produto' });
    await confirm.getByText('Tem certeza que deseja excluir este produto?').waitFor();
    await confirm.getByRole('button', { name: 'Cancelar' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(await row.count()).toBe(1);

    await row.getByRole('button', { name: `Excluir ${CHARGER.name}` }).click();
    await confirm.getByRole('button', { name: 'Excluir' }).click();
    await toast(page, 'Produto excluído com sucesso!');
    await page.getByText('1 produto encontrado para "carregador"').waitFor();
    expect(await row.count()).toBe(0);
    const gone = await fetch(`${store.server.url}/product/${CHARGER.id}`);
    expect(gone.status).toBe(404);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('at 360 px: the list fits the phone and the form is its own page', async () => {
    const { page, problems } = await adminPage(store, VIEWPORTS.mobile);
    await page
      .getByRole('list', { name: 'Produtos' })
      .getByRole('listitem')
      .filter({ hasText: KEYBOARD.name })
      .waitFor();
    await expectNoSidewaysScroll(page);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByRole('link', { name: 'Adicionar produto' }).click();
    await page.waitForURL(`${store.server.url}/admin/products/new`);
    await page.getByRole('heading', { name: 'Adicionar produto', level: 1 }).waitFor();
    await expectNoSidewaysScroll(page);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByLabel('Nome').fill('Cabo HDMI 2 m');
    await page.getByLabel('Descrição').fill('Cabo HDMI 2.1 com 2 metros.');
    await page.getByLabel('Preço (R$)').fill('abc');
    await page.getByLabel('Quantidade em estoque').fill('30');
    await page.getByLabel('Categoria', { exact: true }).selectOption({ label: 'Informática' });
    await page.getByRole('button', { name: 'Salvar produto' }).click();
    await page.getByText('Preço inválido. Use o formato 1.234,56.').waitFor();
    await page.getByText('Adicione pelo menos uma imagem: uma URL ou um arquivo.').waitFor();
    // The mistakes are shown with the form's own styles; axe checks them too.
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByLabel('Preço (R$)').fill('49,90');
    await page
      .getByLabel('Adicionar imagens por endereço')
      .fill('https://imagens.invalid/cabo.jpg');
    // A preview that cannot load is hidden.
    await page.getByText('Sem pré-visualização').waitFor();
    await page.getByLabel('Enviar imagens do aparelho').setInputFiles({
      name: 'cabo.png',
      mimeType: 'image/png',
      buffer: await pngFile(300, 300),
    });
    await page.getByRole('button', { name: 'Salvar produto' }).click();
    await page.waitForURL(`${store.server.url}/admin/products`);
    await toast(page, 'Produto criado com sucesso!');
    await page
      .getByRole('list', { name: 'Produtos' })
      .getByRole('listitem')
      .filter({ hasText: 'Cabo HDMI 2 m' })
      .waitFor();
    await expectNoSidewaysScroll(page);
    // The only failures are the image of the made-up host (its preview, then its thumbnail).
    expect(
      problems.filter(
        (problem) =>
          !problem.includes('imagens.invalid') && !problem.includes('ERR_NAME_NOT_RESOLVED'),
      ),
    ).toEqual([]);
    await page.context().close();
  });
});

describe('admin products over HTTP', () => {
  async function multipart(
    visitor: Visitor | null,
    path: string,
    fields: Record<string, string>,
    files: { name: string; bytes: Uint8Array; type: string; field?: string }[] = [],
  ) {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    for (const file of files) {
      form.append(
        file.field ?? 'uploads',
        new File([file.bytes as Uint8Array<ArrayBuffer>], file.name, { type: file.type }),
      );
    }
    return (visitor ?? new Visitor(store.server.url)).request(path, { method: 'POST', body: form });
  }

  const product = () => ({
    id: randomUUID(),
    name: 'Suporte para Notebook',
    description: 'Alumínio, seis alturas.',
    price: '1.234,56',
    stockQuantity: '4',
    categoryId: KEYBOARD.categoryId!,
    imageUrls: '',
  });

  it('takes a 1 MB photo from an admin, and keeps 256 KiB for everyone else', async () => {
    const photo = new Uint8Array(await pngFile(600, 600, true));
    expect(photo.byteLength).toBeGreaterThan(1_000_000);
    const admin = await adminVisitor(store.server.url);
    const fields = product();
    const saved = await multipart(admin, '/admin/products/new', fields, [
      { name: 'suporte.png', bytes: photo, type: 'image/png' },
    ]);
    expect(saved.status).toBe(303);
    expect(saved.location).toBe('/admin/products');
    const page = await admin.get(`/admin/products/${fields.id}`);
    expect(page.text).toMatch(/\/media\/[0-9a-f-]{36}-600\.webp/);
    // The dialog posts the same form from a script, to its .data address.
    const fromScript = await multipart(
      admin,
      '/admin/products/new.data',
      { ...product(), mode: 'dialog' },
      [{ name: 'suporte.png', bytes: photo, type: 'image/png' }],
    );
    expect(fromScript.status).toBe(200);
    expect(fromScript.text).toContain('Produto criado com sucesso!');

    // The same upload without a session, and a 1 MB post to the cart, are too big.
    const stranger = await multipart(null, '/admin/products/new', product(), [
      { name: 'suporte.png', bytes: photo, type: 'image/png' },
    ]);
    expect(stranger.status).toBe(413);
    expect(stranger.text).toContain('grande');
    const cart = await new Visitor(store.server.url).request('/cart', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `intent=add&productId=${MOUSE.id}&quantity=1&pad=${'x'.repeat(1_048_576)}`,
    });
    expect(cart.status).toBe(413);
  });

  it('answers a bad form with the field messages and a 400, and a non-image with its message', async () => {
    const admin = await adminVisitor(store.server.url);
    const bad = await admin.post('/admin/products/new', {
      ...product(),
      price: 'dez',
      imageUrls: 'https://x.example/a.jpg',
    });
    expect(bad.status).toBe(400);
    expect(visibleText(bad.text)).toContain('Preço inválido. Use o formato 1.234,56.');
    // What was typed is back in the form (the page works without JavaScript).
    expect(bad.text).toContain('value="Suporte para Notebook"');

    const notImage = await multipart(
      admin,
      '/admin/products/new',
      { ...product(), name: 'Produto Recusado' },
      [
        {
          name: 'planilha.pdf',
          bytes: new TextEncoder().encode('%PDF-1.4'),
          type: 'application/pdf',
        },
      ],
    );
    expect(notImage.status).toBe(400);
    expect(visibleText(notImage.text)).toContain(
      'O arquivo "planilha.pdf" não é uma imagem aceita. Envie imagens JPG, PNG, WebP ou GIF.',
    );
    const listed = await admin.get('/admin/products?q=recusado');
    expect(visibleText(listed.text)).toContain('Nenhum produto encontrado para "recusado".');
  });

  it('falls back on bad list parameters and answers unknown ids and media with 404', async () => {
    const admin = await adminVisitor(store.server.url);
    for (const path of [
      '/admin/products?pagina=-3&q=%00%01',
      '/admin/products?pagina=abc',
      '/admin/products?pagina=99999999999',
    ]) {
      const answer = await admin.get(path);
      expect(answer.status, path).toBe(200);
      expect(visibleText(answer.text)).toContain('Produtos');
    }
    const former = await admin.get('/admin/products?q=caneca&page=3');
    expect(former.status).toBe(301);
    expect(former.location).toBe('/admin/products?q=caneca&pagina=3');
    expect((await admin.get(`/admin/products/${randomUUID()}`)).status).toBe(404);
    expect((await admin.get('/admin/products/nao-e-um-id')).status).toBe(404);
    const deleteUnknown = await admin.post('/admin/products', { intent: 'delete', id: 'x' });
    expect(deleteUnknown.status).toBe(404);
    for (const path of [
      `/media/${randomUUID()}-640.webp`,
      '/media/qualquer.webp',
      '/media/..%2Fpackage.json',
    ]) {
      expect((await fetch(`${store.server.url}${path}`)).status, path).toBe(404);
    }
  });

  it('exports a spreadsheet and imports it back, or nothing when a row is wrong', async () => {
    const admin = await adminVisitor(store.server.url);
    const exported = await admin.get('/admin/products/export.csv');
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(exported.headers.get('content-disposition')).toMatch(
      /^attachment; filename="produtos-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    // The BOM (which a text decoder drops) tells Excel the file is UTF-8.
    const raw = await fetch(`${store.server.url}/admin/products/export.csv`, {
      headers: { Cookie: admin.cookieHeader() },
    });
    expect([...new Uint8Array(await raw.arrayBuffer()).subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    // The spreadsheet from before variants, then the variants' columns.
    expect(
      exported.text.startsWith('id;nome;descricao;preco;estoque;categoria;imagens;slug;'),
    ).toBe(true);

    const broken = `${exported.text};Sem preço;Produto;;1;Áudio;https://x.example/a.jpg\r\n`;
    const refused = await multipart(admin, '/admin/products', { intent: 'import' }, [
      {
        field: 'file',
        name: 'produtos.csv',
        bytes: new TextEncoder().encode(broken),
        type: 'text/csv',
      },
    ]);
    expect(refused.status).toBe(400);
    const rows = exported.text.trim().split('\r\n').length;
    expect(visibleText(refused.text)).toContain(`Linha ${rows + 1} (preço): Informe o preço.`);

    const accepted = await multipart(admin, '/admin/products', { intent: 'import' }, [
      {
        field: 'file',
        name: 'produtos.csv',
        bytes: new TextEncoder().encode(exported.text),
        type: 'text/csv',
      },
    ]);
    expect(accepted.status).toBe(200);
    // One row per variant: a product is counted once, by its id in the first column.
    const products = new Set(
      exported.text
        .trim()
        .split('\r\n')
        .slice(1)
        .map((line) => line.split(';')[0]),
    );
    expect(visibleText(accepted.text)).toContain(`${products.size} produtos importados.`);
    // Only signed-in admins get the spreadsheet.
    const stranger = await new Visitor(store.server.url).get('/admin/products/export.csv');
    expect(stranger.location).toMatch(/^\/admin\/login/);
    expect(stranger.text).not.toContain(MOUSE.name);
  });
});
