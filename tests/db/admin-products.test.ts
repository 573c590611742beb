import { randomUUID } from 'node:crypto';

import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';

import { categories, media, orderItems, products } from '~/db/schema';
import { saveProduct } from '~/flows/save-product.server';
import { parseFormData } from '~/lib/form';
import {
  parsePriceText,
  parseStockText,
  PRODUCT_FORM_REPEATABLE,
  productFormSchema,
} from '~/modules/catalog/index.admin';
import {
  deleteProduct,
  exportProductsCsv,
  importProductsCsv,
  listAdminProducts,
  listProductOptions,
  PRODUCT_OPTIONS_LIMIT,
  type ProductValues,
} from '~/modules/catalog/index.admin.server';
import { getProduct } from '~/modules/catalog/index.server';

import { describeDb } from '../support/db';
import { insertOrderRow } from '../support/orders';

describe('product form', () => {
  it.each([
    ['1.234,56', 123456],
    ['1234,56', 123456],
    ['1234.56', 123456],
    ['R$ 1.234,56', 123456],
    ['10', 1000],
    ['10,5', 1050],
    ['0,99', 99],
    ['1.234', 123400],
    ['1.234.567,89', 123456789],
    // A dot before three digits separates thousands, as Brazilians write.
    ['10.555', 1055500],
  ])('reads the price %s as %i cents', (text, cents) => {
    expect(parsePriceText(text)).toEqual({ value: cents });
  });

  it.each([
    ['', 'Informe o preço.'],
    ['abc', 'Preço inválido. Use o formato 1.234,56.'],
    ['12,3,4', 'Preço inválido. Use o formato 1.234,56.'],
    ['-5', 'O preço não pode ser negativo.'],
    ['-5,00', 'O preço não pode ser negativo.'],
    ['0', 'O preço deve ser maior que zero.'],
    ['0,00', 'O preço deve ser maior que zero.'],
    ['10,555', 'Use no máximo duas casas decimais (centavos).'],
    ['99999999999', 'Preço alto demais.'],
    ['1234.5678', 'Use no máximo duas casas decimais (centavos).'],
  ])('refuses the price "%s": %s', (text, message) => {
    expect(parsePriceText(text)).toEqual({ error: message });
  });

  it('reads stock as whole units from zero', () => {
    expect(parseStockText('0')).toEqual({ value: 0 });
    expect(parseStockText(' 12 ')).toEqual({ value: 12 });
    expect(parseStockText('1.000')).toEqual({ value: 1000 });
    expect(parseStockText('-1')).toEqual({ error: 'O estoque não pode ser negativo.' });
    expect(parseStockText('2,5')).toEqual({ error: 'Use um número inteiro de unidades, como 10.' });
    expect(parseStockText('')).toEqual({ error: 'Informe a quantidade em estoque.' });
    expect(parseStockText('2000000')).toEqual({ error: 'Use no máximo 1.000.000 unidades.' });
  });

  function form(fields: Record<string, string>, files: File[] = []) {
    const data = new FormData();
    for (const [name, value] of Object.entries(fields)) data.append(name, value);
    for (const file of files) data.append('uploads', file);
    return parseFormData(data, productFormSchema, { repeatable: PRODUCT_FORM_REPEATABLE });
  }
  const valid = {
    id: randomUUID(),
    name: '  Caneca   de cerâmica ',
    description: 'Caneca branca, 300 ml.',
    price: '39,90',
    stockQuantity: '12',
    categoryId: randomUUID(),
    imageUrls:
      ' https://cdn.example/a.jpg ,\n\n/media/0190a6b2-7c1e-8d3f-9a4b-5c6d7e8f9a0b-640.webp, https://cdn.example/a.jpg,',
  };

  it('cleans the fields and splits the image URLs (trimmed, blanks and repeats dropped)', () => {
    const parsed = form(valid);
    expect(parsed.ok && parsed.data).toMatchObject({
      name: 'Caneca de cerâmica',
      price: 3990,
      stockQuantity: 12,
      imageUrls: [
        'https://cdn.example/a.jpg',
        '/media/0190a6b2-7c1e-8d3f-9a4b-5c6d7e8f9a0b-640.webp',
      ],
      uploads: [],
      mode: 'page',
      returnTo: '/admin/products',
    });
  });

  it('says what is wrong with each field, in Portuguese', () => {
    const parsed = form({
      id: 'x',
      name: ' ',
      description: '',
      price: '12,345',
      stockQuantity: '-2',
      categoryId: '',
      imageUrls: 'javascript:alert(1), /admin/logout',
    });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.fieldErrors).toEqual({
      id: 'Formulário expirado. Recarregue a página e tente de novo.',
      name: 'Informe o nome do produto.',
      description: 'Informe a descrição do produto.',
      price: 'Use no máximo duas casas decimais (centavos).',
      stockQuantity: 'O estoque não pode ser negativo.',
      categoryId: 'Selecione a categoria.',
      imageUrls:
        'Endereço de imagem inválido: "javascript:alert(1)". Use um endereço que comece com https://.',
    });
    // Values come back as typed, to fill the form again.
    expect(parsed.values.price).toBe('12,345');
  });

  it("takes the feeds' brand, Google category, condition and the one variant's GTIN and MPN", () => {
    const parsed = form({
      ...valid,
      brand: '  Tramontina ',
      googleProductCategory: '2169',
      condition: 'refurbished',
      gtin: '789-1000 315507',
      mpn: 'TR 123',
    });
    expect(parsed.ok && parsed.data).toMatchObject({
      brand: 'Tramontina',
      googleProductCategory: '2169',
      condition: 'refurbished',
      variants: [{ gtin: '7891000315507', mpn: 'TR 123', stockQuantity: 12 }],
    });
    // A form from before them: none, and new.
    expect(form(valid).ok && form(valid)).toMatchObject({
      data: { brand: '', googleProductCategory: '', condition: 'new' },
    });
  });

  it('refuses a wrong GTIN, in the field or in the row of the variants grid', () => {
    const single = form({ ...valid, gtin: '7891000315508', condition: 'seminovo' });
    expect(!single.ok && single.fieldErrors).toMatchObject({
      gtin: 'GTIN inválido: use o código de barras de 8, 12, 13 ou 14 dígitos, com o dígito verificador certo, ou deixe em branco.',
      condition: 'Condição inválida: use novo, usado ou recondicionado.',
    });
    const cells = {
      id: '',
      sku: '',
      price: '',
      compareAtPrice: '',
      stock: '1',
      weight: '',
      length: '',
      width: '',
      height: '',
      image: '',
      mpn: '',
    };
    const grid = form({
      ...valid,
      options: JSON.stringify([{ name: 'Tamanho', values: [{ name: 'P' }, { name: 'G' }] }]),
      variants: JSON.stringify([
        { ...cells, values: ['P'], gtin: '96385074' },
        { ...cells, values: ['G'], gtin: '12345' },
      ]),
    });
    expect(!grid.ok && grid.fieldErrors).toEqual({
      'variants.1.gtin':
        'GTIN inválido: use o código de barras de 8, 12, 13 ou 14 dígitos, com o dígito verificador certo, ou deixe em branco.',
    });
  });

  it('needs an image: a URL or a file (an empty file input counts as none)', () => {
    const none = form({ ...valid, imageUrls: ' , ' }, [new File([], '')]);
    expect(!none.ok && none.fieldErrors.imageUrls).toBe(
      'Adicione pelo menos uma imagem: uma URL ou um arquivo.',
    );
    const file = form({ ...valid, imageUrls: '' }, [new File(['x'], 'foto.png')]);
    expect(file.ok && file.data.uploads.map((upload) => upload.name)).toEqual(['foto.png']);
  });

  it('adds the addresses typed in their own box after the list, once each, and checks them', () => {
    const upload = '/media/0190a6b2-7c1e-8d3f-9a4b-5c6d7e8f9a0b-1000.webp';
    const added = form({
      ...valid,
      imageUrls: `${upload}\nhttps://cdn.example/a.jpg`,
      newImageUrls: 'https://cdn.example/b.jpg, https://cdn.example/a.jpg',
    });
    expect(added.ok && added.data.imageUrls).toEqual([
      upload,
      'https://cdn.example/a.jpg',
      'https://cdn.example/b.jpg',
    ]);
    expect(added.ok && 'newImageUrls' in added.data).toBe(false);

    const onlyTyped = form({ ...valid, imageUrls: '', newImageUrls: 'https://cdn.example/b.jpg' });
    expect(onlyTyped.ok && onlyTyped.data.imageUrls).toEqual(['https://cdn.example/b.jpg']);

    const bad = form({ ...valid, newImageUrls: 'ftp://cdn.example/b.jpg' });
    expect(!bad.ok && Object.keys(bad.fieldErrors)).toEqual(['newImageUrls']);
    expect(!bad.ok && bad.fieldErrors.newImageUrls).toContain('Endereço de imagem inválido');
  });

  it('sends a form back only to the product list', () => {
    const elsewhere = form({ ...valid, returnTo: 'https://evil.example/' });
    expect(elsewhere.ok && elsewhere.data.returnTo).toBe('/admin/products');
    const listed = form({ ...valid, returnTo: '/admin/products?q=caneca&pagina=2' });
    expect(listed.ok && listed.data.returnTo).toBe('/admin/products?q=caneca&pagina=2');
  });
});

async function png(width: number, height: number): Promise<File> {
  const bytes = await sharp({
    create: { width, height, channels: 3, background: { r: 200, g: 30, b: 60 } },
  })
    .png()
    .toBuffer();
  return new File([new Uint8Array(bytes)], 'foto.png', { type: 'image/png' });
}

describeDb('admin products', ({ db }) => {
  async function category(name = 'Cozinha') {
    const [row] = await db().insert(categories).values({ name }).returning();
    return row!;
  }
  function values(categoryId: string, changes: Partial<ProductValues> = {}): ProductValues {
    return {
      name: 'Caneca',
      description: 'Caneca branca.',
      priceCents: 3990,
      stockQuantity: 12,
      categoryId,
      imageUrls: ['https://cdn.example/caneca.jpg'],
      ...changes,
    };
  }

  it('offers a picker at most 30 products by name, and finds the others by what is typed', async () => {
    const names = Array.from({ length: 34 }, (_, index) => `Ímã ${String(index).padStart(2, '0')}`);
    await db()
      .insert(products)
      .values([
        ...names.map((name) => ({ name, priceCents: 500 })),
        { name: 'Abajur de Mesa', priceCents: 500 },
      ]);

    const first = await listProductOptions(db());
    expect(first.total).toBe(35);
    expect(first.options).toHaveLength(PRODUCT_OPTIONS_LIMIT);
    // Accents aside, as a Brazilian reads: Abajur, then Ímã 00, 01…
    expect(first.options.slice(0, 3).map((option) => option.name)).toEqual([
      'Abajur de Mesa',
      'Ímã 00',
      'Ímã 01',
    ]);

    const found = await listProductOptions(db(), 'ima 33');
    expect(found).toEqual({ options: [{ id: expect.any(String), name: 'Ímã 33' }], total: 1 });
    expect(await listProductOptions(db(), 'nada disso')).toEqual({ options: [], total: 0 });
  });

  it('creates, updates and deletes a product', async () => {
    const kitchen = await category();
    const id = randomUUID();
    const created = await saveProduct(db(), {
      mode: 'create',
      id,
      values: values(kitchen.id),
      uploads: [],
    });
    expect(created).toEqual({
      ok: true,
      created: true,
      imageUrls: ['https://cdn.example/caneca.jpg'],
    });

    const updated = await saveProduct(db(), {
      mode: 'update',
      id,
      values: values(kitchen.id, {
        priceCents: 123456,
        imageUrls: ['https://cdn.example/b.jpg', 'https://cdn.example/caneca.jpg'],
      }),
      uploads: [],
    });
    expect(updated.ok).toBe(true);
    expect(await getProduct(db(), id)).toMatchObject({
      priceCents: 123456,
      imageUrls: ['https://cdn.example/b.jpg', 'https://cdn.example/caneca.jpg'],
      category: { id: kitchen.id, name: 'Cozinha' },
    });

    expect(await deleteProduct(db(), id)).toBe(true);
    expect(await getProduct(db(), id)).toBeNull();
    expect(await deleteProduct(db(), id)).toBe(false);
    expect(await deleteProduct(db(), 'not-a-uuid')).toBe(false);
  });

  it('creates one product when the same form arrives twice, even at once', async () => {
    const kitchen = await category();
    const id = randomUUID();
    const save = () =>
      saveProduct(db(), { mode: 'create', id, values: values(kitchen.id), uploads: [] });
    const results = await Promise.all([save(), save()]);
    expect(results.map((result) => result.ok && result.created).sort()).toEqual([false, true]);
    expect(await save()).toMatchObject({ ok: true, created: false });
    expect(await db().select().from(products)).toHaveLength(1);
  });

  it('refuses a new-product form sent again with other values, keeping neither them nor its uploads', async () => {
    const kitchen = await category();
    const id = randomUUID();
    const first = values(kitchen.id);
    await saveProduct(db(), { mode: 'create', id, values: first, uploads: [] });
    const resent = await saveProduct(db(), {
      mode: 'create',
      id,
      values: values(kitchen.id, { name: 'Caneca grande', priceCents: 4990 }),
      uploads: [await png(400, 300)],
    });
    expect(resent).toEqual({ ok: false, reason: 'form-reused' });
    expect(await getProduct(db(), id)).toMatchObject(first);
    expect(await db().select().from(media)).toHaveLength(0);
    // The very same form again is still a quiet success.
    expect(
      await saveProduct(db(), { mode: 'create', id, values: first, uploads: [] }),
    ).toMatchObject({ ok: true, created: false });
  });

  it('refuses a category that no longer exists and an unknown product, writing nothing', async () => {
    const file = await png(400, 300);
    const missingCategory = await saveProduct(db(), {
      mode: 'create',
      id: randomUUID(),
      values: values(randomUUID()),
      uploads: [file],
    });
    expect(missingCategory).toEqual({ ok: false, reason: 'category-gone' });
    const kitchen = await category();
    const unknown = await saveProduct(db(), {
      mode: 'update',
      id: randomUUID(),
      values: values(kitchen.id),
      uploads: [file],
    });
    expect(unknown).toEqual({ ok: false, reason: 'not-found' });
    expect(await db().select().from(products)).toHaveLength(0);
    // The uploads of a refused save are not kept.
    expect(await db().select().from(media)).toHaveLength(0);
  });

  it('adds uploads after the listed images, once each, in the same transaction', async () => {
    const kitchen = await category();
    const id = randomUUID();
    const photo = await png(1600, 1200);
    const saved = await saveProduct(db(), {
      mode: 'create',
      id,
      values: values(kitchen.id),
      uploads: [photo, photo],
    });
    expect(saved.ok).toBe(true);
    const product = await getProduct(db(), id);
    expect(product!.imageUrls).toHaveLength(2);
    expect(product!.imageUrls[0]).toBe('https://cdn.example/caneca.jpg');
    expect(product!.imageUrls[1]).toMatch(/^\/media\/[0-9a-f-]{36}-1280\.webp$/);
    // Sending the form again (a double click) changes nothing.
    await saveProduct(db(), {
      mode: 'update',
      id,
      values: values(kitchen.id, { imageUrls: product!.imageUrls }),
      uploads: [photo],
    });
    expect((await getProduct(db(), id))!.imageUrls).toEqual(product!.imageUrls);
    expect(await db().select().from(media)).toHaveLength(1);
  });

  it('keeps NUL and control characters out of the database: a file name with a NUL, a name with a bell', async () => {
    const kitchen = await category();
    const id = randomUUID();
    const photo = await png(800, 600);
    const form = new FormData();
    const fields = {
      id,
      name: 'Caneca\u0007 azul\u009b',
      description: 'Linha 1\r\nLinha\u000b 2',
      price: '10',
      stockQuantity: '1',
      categoryId: kitchen.id,
      imageUrls: '',
    };
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('uploads', new File([photo], 'foto\u0000\u0001.png', { type: 'image/png' }));
    const parsed = parseFormData(form, productFormSchema, { repeatable: PRODUCT_FORM_REPEATABLE });
    if (!parsed.ok) throw new Error(parsed.error);
    const { name, description, price, stockQuantity, categoryId, imageUrls } = parsed.data;
    const saved = await saveProduct(db(), {
      mode: 'create',
      id,
      values: { name, description, priceCents: price, stockQuantity, categoryId, imageUrls },
      uploads: parsed.data.uploads,
    });
    expect(saved.ok).toBe(true);
    expect(await getProduct(db(), id)).toMatchObject({
      name: 'Caneca azul',
      description: 'Linha 1\r\nLinha 2',
    });
    expect((await db().select().from(media)).map((row) => row.originalName)).toEqual(['foto.png']);
  });

  it('keeps the copies in orders when a product is deleted', async () => {
    const kitchen = await category();
    const id = randomUUID();
    await saveProduct(db(), { mode: 'create', id, values: values(kitchen.id), uploads: [] });
    const order = await insertOrderRow(db(), { cents: 3990, orderToken: randomUUID() });
    await db().insert(orderItems).values({
      orderId: order.id,
      productId: id,
      productName: 'Caneca',
      productPriceCents: 3990,
      quantity: 1,
      totalPriceCents: 3990,
      imageUrl: 'https://cdn.example/caneca.jpg',
    });
    expect(await deleteProduct(db(), id)).toBe(true);
    const [item] = await db().select().from(orderItems).where(eq(orderItems.orderId, order.id));
    expect(item).toMatchObject({
      productId: null,
      productName: 'Caneca',
      productPriceCents: 3990,
      imageUrl: 'https://cdn.example/caneca.jpg',
    });
  });

  it('lists 20 a page, newest first, searched by name ignoring accents', async () => {
    const kitchen = await category();
    const base = Date.parse('2026-01-01T12:00:00Z');
    await db()
      .insert(products)
      .values(
        Array.from({ length: 23 }, (_, index) => ({
          name: index === 3 ? 'Café especial' : `Produto ${index}`,
          priceCents: 1000,
          categoryId: kitchen.id,
          createdAt: new Date(base + index * 1000),
        })),
      );
    const first = await listAdminProducts(db(), { q: '', page: 1 });
    expect(first).toMatchObject({ total: 23, page: 1, pageCount: 2 });
    expect(first.products).toHaveLength(20);
    expect(first.products[0]!.name).toBe('Produto 22');
    const past = await listAdminProducts(db(), { q: '', page: 99 });
    expect(past.page).toBe(2);
    expect(past.products).toHaveLength(3);
    const found = await listAdminProducts(db(), { q: 'cafe', page: 1 });
    expect(found.products.map((product) => product.name)).toEqual(['Café especial']);
  });

  describe('CSV', () => {
    const HEADER = 'id;nome;descricao;preco;estoque;categoria;imagens';

    it('exports every product for Excel: BOM, semicolons, prices as 1234,56', async () => {
      const kitchen = await category();
      const id = randomUUID();
      await saveProduct(db(), {
        mode: 'create',
        id,
        values: values(kitchen.id, {
          name: '=Caneca; "grande"',
          description: 'Linha 1\nLinha 2',
          priceCents: 123456,
          imageUrls: ['https://cdn.example/a.jpg', 'https://cdn.example/b.jpg'],
        }),
        uploads: [],
      });
      const csv = await exportProductsCsv(db());
      // The spreadsheet from before variants, then the variant's columns.
      expect(csv.startsWith('\ufeff' + HEADER + ';slug;opcao1_nome;')).toBe(true);
      const [, row] = parse(csv, { delimiter: ';', bom: true }) as string[][];
      expect(row!.slice(0, 7)).toEqual([
        id,
        // A leading apostrophe keeps Excel from running the name as a formula.
        `'=Caneca; "grande"`,
        'Linha 1\nLinha 2',
        '1234,56',
        '12',
        'Cozinha',
        'https://cdn.example/a.jpg | https://cdn.example/b.jpg',
      ]);
    });

    it('reads its own export back unchanged (round trip)', async () => {
      const kitchen = await category('Cozinha');
      const garden = await category('Jardim');
      for (const [index, categoryId] of [kitchen.id, garden.id].entries()) {
        await saveProduct(db(), {
          mode: 'create',
          id: randomUUID(),
          values: values(categoryId, {
            name: `=Produto ${index}`,
            priceCents: 100 + index,
            stockQuantity: index,
            description: 'Com "aspas"; e ponto e vírgula\nem duas linhas',
          }),
          uploads: [],
        });
      }
      const before = await db().select().from(products).orderBy(products.name);
      const csv = await exportProductsCsv(db());
      const result = await importProductsCsv(db(), new TextEncoder().encode(csv));
      expect(result).toEqual({ ok: true, created: 0, updated: 2, categoriesCreated: [] });
      const after = await db().select().from(products).orderBy(products.name);
      expect(after.map(({ updatedAt: _u, ...rest }) => rest)).toEqual(
        before.map(({ updatedAt: _u, ...rest }) => rest),
      );
    });

    it('creates new products and categories (matched ignoring case and accents), updates by id', async () => {
      const kitchen = await category('Cozinha Gourmet');
      const id = randomUUID();
      await saveProduct(db(), { mode: 'create', id, values: values(kitchen.id), uploads: [] });
      const csv = [
        HEADER,
        `${id};Caneca nova;Descrição nova;1.234,56;7;cozinha gourmet;https://cdn.example/x.jpg`,
        ';Prato;Prato raso;25;3;Mesa Posta;https://cdn.example/p1.jpg | /media/0190a6b2-7c1e-8d3f-9a4b-5c6d7e8f9a0b-640.webp',
        ';;;;;;',
        ';Vaso;Vaso de barro;89,9;0;Jardim;https://cdn.example/v.jpg',
      ].join('\n');
      const result = await importProductsCsv(db(), new TextEncoder().encode(csv));
      expect(result).toEqual({
        ok: true,
        created: 2,
        updated: 1,
        categoriesCreated: ['Mesa Posta', 'Jardim'],
      });
      expect(await getProduct(db(), id)).toMatchObject({
        name: 'Caneca nova',
        priceCents: 123456,
        stockQuantity: 7,
        category: { name: 'Cozinha Gourmet' },
        imageUrls: ['https://cdn.example/x.jpg'],
      });
      const plate = (await db().select().from(products).where(eq(products.name, 'Prato')))[0];
      expect(plate).toMatchObject({
        priceCents: 2500,
        imageUrls: [
          'https://cdn.example/p1.jpg',
          '/media/0190a6b2-7c1e-8d3f-9a4b-5c6d7e8f9a0b-640.webp',
        ],
      });
    });

    it("exports and imports the feeds' brand, Google category, condition, GTIN and MPN", async () => {
      const kitchen = await category('Cozinha');
      const id = randomUUID();
      await saveProduct(db(), { mode: 'create', id, values: values(kitchen.id), uploads: [] });
      const csv = [
        `${HEADER};slug;brand;google_product_category;condition;gtin;mpn`,
        `${id};Caneca;Caneca branca;39,90;5;Cozinha;https://cdn.example/a.jpg;;Tramontina;2169;Usado;789 1000 315507;TR-1`,
      ].join('\n');
      expect(await importProductsCsv(db(), new TextEncoder().encode(csv))).toMatchObject({
        ok: true,
        updated: 1,
      });
      expect(await getProduct(db(), id)).toMatchObject({
        brand: 'Tramontina',
        googleProductCategory: '2169',
        condition: 'used',
      });
      const [, row] = parse(await exportProductsCsv(db()), {
        delimiter: ';',
        bom: true,
        columns: false,
      }) as string[][];
      const header = (
        parse(await exportProductsCsv(db()), { delimiter: ';', bom: true }) as string[][]
      )[0]!;
      const cell = (name: string) => row![header.indexOf(name)];
      expect(['brand', 'google_product_category', 'condition', 'gtin', 'mpn'].map(cell)).toEqual([
        'Tramontina',
        '2169',
        'used',
        '7891000315507',
        'TR-1',
      ]);
      // A spreadsheet without the columns leaves them as they are.
      const plain = `${HEADER}\n${id};Caneca;Caneca branca;41,90;5;Cozinha;https://cdn.example/a.jpg`;
      await importProductsCsv(db(), new TextEncoder().encode(plain));
      expect(await getProduct(db(), id)).toMatchObject({ priceCents: 4190, brand: 'Tramontina' });
      const [again] = parse(await exportProductsCsv(db()), {
        delimiter: ';',
        bom: true,
        from_line: 2,
      }) as string[][];
      expect(again![header.indexOf('gtin')]).toBe('7891000315507');
    });

    it('refuses a wrong GTIN or condition, naming the row and the column', async () => {
      await category('Cozinha');
      const csv = [
        `${HEADER};condition;gtin`,
        ';Caneca;Caneca branca;39,90;5;Cozinha;https://cdn.example/a.jpg;novo;7891000315507',
        ';Prato;Prato raso;25;3;Cozinha;https://cdn.example/p.jpg;seminovo;7891000315508',
      ].join('\n');
      expect(await importProductsCsv(db(), new TextEncoder().encode(csv))).toMatchObject({
        ok: false,
        problems: [
          {
            row: 3,
            column: 'condition',
            message: 'Condição inválida: use novo, usado ou recondicionado.',
          },
          { row: 3, column: 'gtin', message: expect.stringContaining('GTIN inválido') },
        ],
      });
      expect(await db().select().from(products)).toEqual([]);
    });

    it('imports nothing when any row is wrong, and says which rows and why', async () => {
      const kitchen = await category();
      const id = randomUUID();
      const csv = [
        HEADER,
        ';Bom;Produto bom;10;1;Cozinha;https://cdn.example/a.jpg',
        `${id};Preço ruim;Produto;dez reais;1;Cozinha;https://cdn.example/a.jpg`,
        `${id};Repetido;Produto;10;-1;;`,
        'abc;;Sem nome;10;1;Nova;ftp://cdn.example/a.jpg',
      ].join('\r\n');
      const result = await importProductsCsv(db(), new TextEncoder().encode(csv));
      expect(result).toEqual({
        ok: false,
        error: 'Nenhum produto foi importado: corrija as linhas abaixo e envie o arquivo de novo.',
        moreProblems: 0,
        problems: [
          { row: 3, column: 'preço', message: 'Preço inválido. Use o formato 1.234,56.' },
          { row: 4, column: 'id', message: 'Este id já aparece na linha 3.' },
          { row: 4, column: 'estoque', message: 'O estoque não pode ser negativo.' },
          { row: 4, column: 'categoria', message: 'Informe a categoria.' },
          {
            row: 4,
            column: 'imagens',
            message: 'Adicione pelo menos uma imagem: uma URL ou um arquivo.',
          },
          {
            row: 5,
            column: 'id',
            message: 'id inválido. Deixe em branco para criar um produto novo.',
          },
          { row: 5, column: 'nome', message: 'Informe o nome do produto.' },
          {
            row: 5,
            column: 'imagens',
            message:
              'Endereço de imagem inválido: "ftp://cdn.example/a.jpg". Use um endereço que comece com https://.',
          },
        ],
      });
      expect(await db().select().from(products)).toHaveLength(0);
      expect((await db().select().from(categories)).map((row) => row.id)).toEqual([kitchen.id]);
    });

    it("matches slugs as the database writes them: 'teclado mecanico rgb' is 'teclado-mecanico-rgb'", async () => {
      const kitchen = await category('Cozinha');
      const id = randomUUID();
      await saveProduct(db(), {
        mode: 'create',
        id,
        values: values(kitchen.id, { name: 'Teclado mecânico RGB' }),
        uploads: [],
      });
      const slugged = 'slug;nome;descricao;preco;estoque;categoria;imagens';
      const image = 'https://cdn.example/t.jpg';
      const update = await importProductsCsv(
        db(),
        new TextEncoder().encode(
          `${slugged}\nTeclado Mecânico  RGB;Teclado novo;Novo;10;1;Cozinha;${image}`,
        ),
      );
      expect(update).toEqual({ ok: true, created: 0, updated: 1, categoriesCreated: [] });
      expect(await getProduct(db(), id)).toMatchObject({
        name: 'Teclado novo',
        slug: 'teclado-mecanico-rgb',
      });

      const refused = (csv: string) => importProductsCsv(db(), new TextEncoder().encode(csv));
      expect(
        await refused(
          [
            slugged,
            `fuzz slug x;A;A;10;1;Cozinha;${image}`,
            `fuzz-slug-x;B;B;10;1;Cozinha;${image}`,
          ].join('\n'),
        ),
      ).toMatchObject({
        ok: false,
        problems: [{ row: 3, column: 'slug', message: 'Este slug já aparece na linha 2.' }],
      });
      expect(
        await refused(
          [
            `id;${slugged}`,
            `${randomUUID()};teclado mecanico rgb;Outro;Outro;10;1;Cozinha;${image}`,
          ].join('\n'),
        ),
      ).toMatchObject({
        ok: false,
        problems: [
          {
            row: 2,
            column: 'slug',
            message: 'Este slug já é de outro produto: deixe em branco ou escolha outro.',
          },
        ],
      });
      expect(
        await refused(
          [
            `id;${slugged}`,
            `${id};;Pelo id;Pelo id;10;1;Cozinha;${image}`,
            `;teclado_mecanico_rgb;Pelo slug;Pelo slug;10;1;Cozinha;${image}`,
          ].join('\n'),
        ),
      ).toMatchObject({
        ok: false,
        problems: [
          { row: 3, column: 'slug', message: 'Este produto já aparece na linha 2, pelo id.' },
        ],
      });
      expect(await db().select().from(products)).toHaveLength(1);
    });

    it('refuses a category name longer than a category may have, and keeps look-alike formulas', async () => {
      const long = await importProductsCsv(
        db(),
        new TextEncoder().encode(
          `${HEADER}\n;Vaso;Vaso;10;1;${'C'.repeat(81)};https://c.example/a.jpg`,
        ),
      );
      expect(long).toMatchObject({
        ok: false,
        problems: [
          { row: 2, column: 'categoria', message: 'Use no máximo 80 caracteres no nome.' },
        ],
      });
      const kitchen = await category();
      const id = randomUUID();
      await saveProduct(db(), {
        mode: 'create',
        id,
        values: values(kitchen.id, { name: '\uFF1DSOMA(1)' }),
        uploads: [],
      });
      const csv = await exportProductsCsv(db());
      expect(csv).toContain(`;'\uFF1DSOMA(1);`);
      await importProductsCsv(db(), new TextEncoder().encode(csv));
      expect((await getProduct(db(), id))!.name).toBe('\uFF1DSOMA(1)');
    });

    it('reads commas as separators, Windows-1252 text, and refuses what is not the spreadsheet', async () => {
      await category('Decoração');
      const latin1 = new Uint8Array(
        [
          ...'nome,descricao,preco,estoque,categoria,imagens\r\nTapete,Tapete de sisal,"199,90",2,Decoração,https://cdn.example/t.jpg\r\n',
        ].map((char) => char.charCodeAt(0)),
      );
      expect(await importProductsCsv(db(), latin1)).toMatchObject({ ok: true, created: 1 });
      expect((await db().select().from(products))[0]).toMatchObject({
        name: 'Tapete',
        priceCents: 19990,
      });

      expect(
        await importProductsCsv(db(), new TextEncoder().encode('nome;preco\nA;1')),
      ).toMatchObject({
        ok: false,
        error:
          'Faltam colunas no cabeçalho: descricao, estoque, categoria, imagens. Use a planilha exportada como modelo.',
      });
      expect(await importProductsCsv(db(), new TextEncoder().encode(`${HEADER}\n`))).toMatchObject({
        ok: false,
        error: 'O arquivo não tem nenhum produto.',
      });
      expect(
        await importProductsCsv(db(), new TextEncoder().encode(`${HEADER}\n;"aberto;x;1;1;a;b`)),
      ).toMatchObject({ ok: false, error: expect.stringMatching(/^Não foi possível ler o CSV/) });
      const many = `${HEADER}\n${';A;B;1;1;C;https://c.example/a.jpg\n'.repeat(10_001)}`;
      expect(await importProductsCsv(db(), new TextEncoder().encode(many))).toMatchObject({
        ok: false,
        error: 'O arquivo passa de 10.000 produtos. Divida a planilha em partes menores.',
      });
    });
  });
});
