import { randomUUID } from 'node:crypto';

import { parse } from 'csv-parse/sync';
import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { categories, products, productVariants } from '~/db/schema';
import { saveProduct } from '~/flows/save-product.server';
import { parseFormData } from '~/lib/form';
import {
  generateVariants,
  PRODUCT_FORM_REPEATABLE,
  productFormSchema,
  type VariantDraft,
} from '~/modules/catalog/index.admin';
import {
  exportProductsCsv,
  importProductsCsv,
  variantDrafts,
  type ProductValues,
} from '~/modules/catalog/index.admin.server';

import { describeDb } from '../support/db';

const TSHIRT_OPTIONS = [
  { name: 'Tamanho', values: [{ name: 'P' }, { name: 'M' }] },
  {
    name: 'Cor',
    values: [
      { name: 'Azul', color: '#1d4ed8' },
      { name: 'Preto', color: '#000000' },
    ],
  },
];

function draft(values: string[], cells: Partial<VariantDraft> = {}): VariantDraft {
  return {
    id: '',
    values,
    sku: '',
    price: '',
    compareAtPrice: '',
    stock: '0',
    weight: '',
    length: '',
    width: '',
    height: '',
    image: '',
    gtin: '',
    mpn: '',
    ...cells,
  };
}

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return parseFormData(data, productFormSchema, { repeatable: PRODUCT_FORM_REPEATABLE });
}

const base = {
  id: randomUUID(),
  name: 'Camiseta básica',
  description: 'Algodão.',
  price: '59,90',
  categoryId: randomUUID(),
  imageUrls: 'https://cdn.example/camiseta.jpg',
};

describe('options and variants in the product form', () => {
  it('generates the missing combinations, keeping the existing ones and their data', () => {
    const kept = draft(['P', 'Azul'], { id: randomUUID(), stock: '7', sku: 'CAM-P-AZUL' });
    const gone = draft(['G', 'Azul'], { stock: '3' });
    const generated = generateVariants(TSHIRT_OPTIONS, [kept, gone]);
    expect(generated.map((variant) => variant.values)).toEqual([
      ['P', 'Azul'],
      ['P', 'Preto'],
      ['M', 'Azul'],
      ['M', 'Preto'],
    ]);
    expect(generated[0]).toBe(kept);
    expect(generated[1]).toMatchObject({ id: '', stock: '0', sku: '' });
  });

  it('hands a product without options its one variant to the first combination', () => {
    const single = draft([], { id: randomUUID(), stock: '9', sku: 'CAMISETA' });
    const [first, second] = generateVariants(TSHIRT_OPTIONS, [single]);
    expect(first).toEqual({ ...single, values: ['P', 'Azul'] });
    expect(second!.id).toBe('');
  });

  it('reads the grid into variants, and a product without options into one', () => {
    const parsed = form({
      ...base,
      options: JSON.stringify(TSHIRT_OPTIONS),
      variants: JSON.stringify([
        draft(['P', 'Azul'], {
          stock: '5',
          price: '64,90',
          compareAtPrice: '79,90',
          weight: '180',
        }),
        draft(['M', 'Preto'], { stock: '1.000', sku: ' CAM-M ' }),
      ]),
    });
    expect(parsed.ok && parsed.data).toMatchObject({
      options: TSHIRT_OPTIONS,
      stockQuantity: 1005,
      variants: [
        { values: ['P', 'Azul'], priceCents: 6490, compareAtPriceCents: 7990, weightGrams: 180 },
        { values: ['M', 'Preto'], sku: 'CAM-M', stockQuantity: 1000, priceCents: null },
      ],
    });
    const simple = form({ ...base, stockQuantity: '4', compareAtPrice: '99,90' });
    expect(simple.ok && simple.data).toMatchObject({
      options: [],
      stockQuantity: 4,
      variants: [{ values: [], stockQuantity: 4, compareAtPriceCents: 9990 }],
    });
  });

  it('says what is wrong in each cell of the grid and each option, in Portuguese', () => {
    const parsed = form({
      ...base,
      options: JSON.stringify([
        ...TSHIRT_OPTIONS,
        { name: 'tamanho', values: [{ name: 'X' }, { name: 'X' }, { name: 'Y', color: 'azul' }] },
      ]),
      variants: JSON.stringify([
        draft(['P', 'Azul', 'X'], { stock: '-1', sku: 'A B' }),
        draft(['P', 'Azul', 'X'], { price: '0', weight: '2,5', sku: 'a' }),
        draft(['M', 'Verde', 'X'], { sku: 'a', image: 'javascript:alert(1)' }),
      ]),
    });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.fieldErrors).toEqual({
      'options.2.name': 'Já existe uma opção com este nome.',
      'options.2.values': 'O valor "X" aparece duas vezes.',
      'variants.0.sku': 'Use só letras, números, ponto, hífen e sublinhado.',
      'variants.0.stock': 'Não pode ser negativo.',
      'variants.1.values': 'Esta combinação de valores aparece duas vezes.',
      'variants.1.price': 'O preço deve ser maior que zero.',
      'variants.1.weight': 'Use um número inteiro, como 10.',
      'variants.2.values':
        'Esta variante usa um valor que não está nas opções. Gere as variantes de novo.',
      'variants.2.sku': 'Este SKU já aparece em outra variante deste produto.',
      'variants.2.image':
        'Endereço de imagem inválido: "javascript:alert(1)". Use um endereço que comece com https://.',
    });
  });

  it('refuses options without variants, and JSON that is not the editor’s', () => {
    const none = form({ ...base, options: JSON.stringify(TSHIRT_OPTIONS), variants: '[]' });
    expect(!none.ok && none.fieldErrors).toEqual({
      variants: 'Clique em "Gerar variantes" para criar as combinações das opções.',
    });
    const junk = form({ ...base, stockQuantity: '1', options: '{"a":1}', variants: 'nope' });
    expect(!junk.ok && junk.fieldErrors).toEqual({
      options: 'As opções e variantes vieram incompletas. Recarregue a página e tente de novo.',
      variants: 'As opções e variantes vieram incompletas. Recarregue a página e tente de novo.',
    });
  });
});

describeDb('saving variants', ({ db }) => {
  async function category(name = 'Roupas') {
    const [row] = await db().insert(categories).values({ name }).returning();
    return row!.id;
  }
  function tshirt(categoryId: string, variants: ProductValues['variants']): ProductValues {
    return {
      name: 'Camiseta Básica',
      description: 'Algodão.',
      priceCents: 5990,
      stockQuantity: 0,
      categoryId,
      imageUrls: ['https://cdn.example/camiseta.jpg'],
      options: TSHIRT_OPTIONS,
      variants,
    };
  }
  const variant = (values: string[], stockQuantity: number, sku?: string) => ({
    values,
    sku,
    priceCents: null,
    compareAtPriceCents: null,
    stockQuantity,
    weightGrams: null,
    lengthMm: null,
    widthMm: null,
    heightMm: null,
    imageUrls: [],
  });
  const rows = (productId: string) =>
    db()
      .select()
      .from(productVariants)
      .where(eq(productVariants.productId, productId))
      .orderBy(asc(productVariants.position));

  it('writes the product and its variants in one transaction, with SKUs made by the database', async () => {
    const clothes = await category();
    const id = randomUUID();
    const saved = await saveProduct(db(), {
      mode: 'create',
      id,
      values: tshirt(clothes, [
        variant(['P', 'Azul'], 3),
        variant(['P', 'Preto'], 0, 'CAM-P-PRETO'),
        variant(['M', 'Azul'], 5),
      ]),
      uploads: [],
    });
    expect(saved).toMatchObject({ ok: true, created: true });
    // No default variant beside them: the database saw the variants at commit.
    expect(
      (await rows(id)).map((row) => [row.option1, row.option2, row.sku, row.stockQuantity]),
    ).toEqual([
      ['P', 'Azul', 'CAMISETA-BASICA-P-AZUL', 3],
      ['P', 'Preto', 'CAM-P-PRETO', 0],
      ['M', 'Azul', 'CAMISETA-BASICA-M-AZUL', 5],
    ]);
    const [product] = await db().select().from(products).where(eq(products.id, id));
    expect(product).toMatchObject({ stockQuantity: 8, options: TSHIRT_OPTIONS });
  });

  it('updates variants in place, deletes those of a removed value, refuses a SKU of another product', async () => {
    const clothes = await category();
    const id = randomUUID();
    await saveProduct(db(), {
      mode: 'create',
      id,
      values: tshirt(clothes, [variant(['P', 'Azul'], 3), variant(['M', 'Azul'], 5)]),
      uploads: [],
    });
    const before = await variantDrafts(db(), id);
    const other = randomUUID();
    await saveProduct(db(), {
      mode: 'create',
      id: other,
      values: { ...tshirt(clothes, [variant(['P', 'Azul'], 1, 'OUTRA')]), name: 'Outra' },
      uploads: [],
    });

    const options = [{ name: 'Tamanho', values: [{ name: 'M' }] }, TSHIRT_OPTIONS[1]!];
    const refused = await saveProduct(db(), {
      mode: 'update',
      id,
      values: {
        ...tshirt(clothes, [
          { ...variant(['M', 'Azul'], 9, 'OUTRA'), id: before[1]!.id },
          variant(['M', 'Preto'], 2),
        ]),
        options,
      },
      uploads: [],
    });
    expect(refused).toEqual({ ok: false, reason: 'sku-taken', rows: [0] });
    expect(await rows(id)).toHaveLength(2);

    const saved = await saveProduct(db(), {
      mode: 'update',
      id,
      values: {
        ...tshirt(clothes, [
          { ...variant(['M', 'Azul'], 9, 'CAM-M-AZUL'), id: before[1]!.id },
          variant(['M', 'Preto'], 2),
        ]),
        options,
      },
      uploads: [],
    });
    expect(saved.ok).toBe(true);
    const after = await rows(id);
    expect(
      after.map((row) => [row.id, row.option1, row.option2, row.sku, row.stockQuantity]),
    ).toEqual([
      [before[1]!.id, 'M', 'Azul', 'CAM-M-AZUL', 9],
      [expect.any(String), 'M', 'Preto', 'CAMISETA-BASICA-M-PRETO', 2],
    ]);
    const [product] = await db().select().from(products).where(eq(products.id, id));
    expect(product!.stockQuantity).toBe(11);
  });

  it("keeps a simple product's one variant, writing its stock and 'de' price only", async () => {
    const clothes = await category();
    const id = randomUUID();
    const simple = {
      ...tshirt(clothes, undefined),
      options: [],
      stockQuantity: 4,
    };
    await saveProduct(db(), { mode: 'create', id, values: simple, uploads: [] });
    const [first] = await rows(id);
    await db()
      .update(productVariants)
      .set({ weightGrams: 300 })
      .where(eq(productVariants.id, first!.id));
    await saveProduct(db(), {
      mode: 'update',
      id,
      values: {
        ...simple,
        variants: [{ ...variant([], 6), compareAtPriceCents: 7990, onlyStockAndPrice: true }],
      },
      uploads: [],
    });
    expect(await rows(id)).toMatchObject([
      {
        id: first!.id,
        sku: 'CAMISETA-BASICA',
        stockQuantity: 6,
        compareAtPriceCents: 7990,
        weightGrams: 300,
      },
    ]);
  });

  describe('CSV with variants', () => {
    async function seedStore() {
      const clothes = await category('Roupas');
      const home = await category('Casa');
      await saveProduct(db(), {
        mode: 'create',
        id: randomUUID(),
        values: tshirt(clothes, [
          {
            ...variant(['P', 'Azul'], 3, 'CAM-P-AZUL'),
            priceCents: 6490,
            compareAtPriceCents: 7990,
          },
          {
            ...variant(['P', 'Preto'], 0),
            weightGrams: 180,
            lengthMm: 300,
            widthMm: 200,
            heightMm: 20,
          },
          { ...variant(['M', 'Azul'], 5), imageUrls: ['https://cdn.example/azul.jpg'] },
        ]),
        uploads: [],
      });
      await saveProduct(db(), {
        mode: 'create',
        id: randomUUID(),
        values: {
          name: '=Caneca; "grande"',
          description: 'Linha 1\nLinha 2',
          priceCents: 3990,
          stockQuantity: 12,
          categoryId: home,
          imageUrls: ['https://cdn.example/caneca.jpg'],
        },
        uploads: [],
      });
    }

    it('exports one row per variant, the product on its first row', async () => {
      await seedStore();
      const [header, ...body] = parse(await exportProductsCsv(db()), {
        delimiter: ';',
        bom: true,
      }) as string[][];
      const at = (name: string) => header!.indexOf(name);
      expect(
        body.map((row) => [
          row[at('nome')],
          row[at('opcao1_valor')],
          row[at('opcao2_valor')],
          row[at('opcao2_cor')],
          row[at('sku')],
          row[at('estoque')],
          row[at('preco_variante')],
          row[at('preco_de')],
        ]),
      ).toEqual([
        [`'=Caneca; "grande"`, '', '', '', 'CANECA-GRANDE', '12', '', ''],
        ['Camiseta Básica', 'P', 'Azul', '#1d4ed8', 'CAM-P-AZUL', '3', '64,90', '79,90'],
        ['', 'P', 'Preto', '#000000', 'CAMISETA-BASICA-P-PRETO', '0', '', ''],
        ['', 'M', 'Azul', '#1d4ed8', 'CAMISETA-BASICA-M-AZUL', '5', '', ''],
      ]);
      expect(new Set(body.slice(1).map((row) => row[at('slug')]))).toEqual(
        new Set(['camiseta-basica']),
      );
    });

    it('round trip: export, import into an empty store, export again gives the same file', async () => {
      await seedStore();
      const first = await exportProductsCsv(db());
      await db().delete(products);
      await db().delete(categories);
      const imported = await importProductsCsv(db(), new TextEncoder().encode(first));
      expect(imported).toEqual({
        ok: true,
        created: 2,
        updated: 0,
        categoriesCreated: ['Casa', 'Roupas'],
      });
      expect(await exportProductsCsv(db())).toBe(first);
      // And into the same store: nothing changes.
      expect(await importProductsCsv(db(), new TextEncoder().encode(first))).toMatchObject({
        ok: true,
        updated: 2,
      });
      expect(await exportProductsCsv(db())).toBe(first);
      const [tshirtRow] = await db()
        .select()
        .from(products)
        .where(eq(products.slug, 'camiseta-basica'));
      expect(tshirtRow).toMatchObject({ stockQuantity: 8, options: TSHIRT_OPTIONS });
    });

    it('refuses a spreadsheet from before variants that sets one stock for a product with variants', async () => {
      await seedStore();
      const [tshirtRow] = await db()
        .select()
        .from(products)
        .where(eq(products.slug, 'camiseta-basica'));
      const csv = [
        'id;nome;descricao;preco;estoque;categoria;imagens',
        `${tshirtRow!.id};Camiseta;Algodão;59,90;10;Roupas;https://cdn.example/c.jpg`,
      ].join('\n');
      expect(await importProductsCsv(db(), new TextEncoder().encode(csv))).toMatchObject({
        ok: false,
        problems: [
          {
            row: 2,
            column: 'estoque',
            message:
              'Este produto tem variantes: exporte a planilha de novo e edite o estoque de cada uma na sua linha.',
          },
        ],
      });
    });

    it('groups rows by slug, and says which row of a variant is wrong', async () => {
      await category('Roupas');
      const header =
        'slug;nome;descricao;preco;estoque;categoria;imagens;opcao1_nome;opcao1_valor;sku;preco_variante';
      const good = [
        header,
        'tapete;Tapete;Sisal;199;2;Roupas;https://cdn.example/t.jpg;Tamanho;1,5 × 2 m;;',
        'tapete;;;;1;;;Tamanho;2 × 3 m;TAP-G;349',
      ].join('\n');
      expect(await importProductsCsv(db(), new TextEncoder().encode(good))).toMatchObject({
        ok: true,
        created: 1,
      });
      const [rug] = await db().select().from(products).where(eq(products.slug, 'tapete'));
      expect(rug).toMatchObject({
        stockQuantity: 3,
        options: [{ name: 'Tamanho', values: [{ name: '1,5 × 2 m' }, { name: '2 × 3 m' }] }],
      });
      expect((await rows(rug!.id)).map((row) => [row.sku, row.priceCents])).toEqual([
        ['TAPETE-1-5-2-M', null],
        ['TAP-G', 34900],
      ]);

      const bad = [
        header,
        'vaso;Vaso;Barro;50;1;Roupas;https://cdn.example/v.jpg;Tamanho;P;TAP-G;',
        'vaso;;;;-1;;;Tamanho;;;',
        'vaso;;;;1;;;Tamanho;P;X;0',
      ].join('\n');
      expect(await importProductsCsv(db(), new TextEncoder().encode(bad))).toMatchObject({
        ok: false,
        problems: [
          { row: 3, column: 'estoque', message: 'O estoque não pode ser negativo.' },
          { row: 3, column: 'opcao1_valor', message: 'Informe o valor de "Tamanho".' },
          {
            row: 4,
            column: 'opcao1_valor',
            message: 'Esta combinação de valores já aparece na linha 2.',
          },
          { row: 4, column: 'preco_variante', message: 'O preço deve ser maior que zero.' },
        ],
      });
      const taken = [header, 'vaso;Vaso;Barro;50;1;Roupas;https://cdn.example/v.jpg;;;TAP-G;'].join(
        '\n',
      );
      expect(await importProductsCsv(db(), new TextEncoder().encode(taken))).toMatchObject({
        ok: false,
        problems: [
          {
            row: 2,
            column: 'sku',
            message: 'Este SKU já é usado por um produto que não está na planilha.',
          },
        ],
      });
    });
  });
});
