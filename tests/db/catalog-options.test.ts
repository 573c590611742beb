import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';

import { products, productVariants } from '~/db/schema';
import { seedSampleStore } from '~/flows/seed-sample-store.server';
import {
  optionFacets,
  putProduct,
  putProductWithVariants,
  searchProducts,
} from '~/modules/catalog/index.server';
import { parseCatalogParams, type CatalogQuery, type VariantRecord } from '~/modules/catalog';

import { describeDb } from '../support/db';

const id = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

describeDb('catalogue by option value', ({ db }) => {
  const base = Date.parse('2026-01-01T12:00:00Z');

  /** A shirt in P/M/G × Azul/Preta, a rug in two sizes, a plain mug; each newer than the last. */
  async function seed() {
    const shirt = (n: number, size: string, colour: string, stock: number): VariantRecord => ({
      id: id(0x100 + n),
      option1: size,
      option2: colour,
      stockQuantity: stock,
    });
    await putProductWithVariants(
      db(),
      {
        id: id(1),
        name: 'Camiseta',
        priceCents: 5000,
        createdAt: new Date(base),
        imageUrls: ['/a.svg'],
        options: [
          { name: 'Tamanho', values: [{ name: 'P' }, { name: 'M' }, { name: 'G' }] },
          { name: 'Cor', values: [{ name: 'Azul' }, { name: 'Preta' }] },
        ],
      },
      [
        shirt(1, 'P', 'Azul', 3),
        shirt(2, 'P', 'Preta', 3),
        // G only in black: a blue G is sold out.
        { ...shirt(3, 'G', 'Azul', 0), imageUrls: ['/g-azul.svg'] },
        shirt(4, 'G', 'Preta', 2),
        shirt(5, 'M', 'Azul', 0),
      ],
    );
    await putProductWithVariants(
      db(),
      {
        id: id(2),
        name: 'Tapete',
        priceCents: 20000,
        createdAt: new Date(base + 1000),
        imageUrls: ['/tapete.svg'],
        // 'Tamanho' here is the first option too, with values of its own.
        options: [{ name: 'Tamanho', values: [{ name: '2 × 3 m' }, { name: 'G' }] }],
      },
      [
        { id: id(0x201), option1: '2 × 3 m', priceCents: 30000, stockQuantity: 1 },
        {
          id: id(0x202),
          option1: 'G',
          priceCents: 15000,
          compareAtPriceCents: 18000,
          stockQuantity: 4,
          imageUrls: ['/tapete-g.svg'],
        },
      ],
    );
    await putProduct(db(), {
      id: id(3),
      name: 'Caneca',
      priceCents: 3000,
      stockQuantity: 5,
      createdAt: new Date(base + 2000),
    });
  }

  async function names(query: Omit<CatalogQuery, 'perPage'>) {
    const page = await searchProducts(db(), { perPage: 50, ...query });
    return { names: page.products.map(({ name }) => name), total: page.total };
  }

  it('keeps only products with a chosen value in stock, one variant holding every option chosen', async () => {
    await seed();
    expect(await names({ options: { Tamanho: ['G'] } })).toEqual({
      names: ['Tapete', 'Camiseta'],
      total: 2,
    });
    // M exists only sold out.
    expect(await names({ options: { Tamanho: ['M'] } })).toEqual({ names: [], total: 0 });
    // Values of one option: any of them; options together: the same variant.
    expect(await names({ options: { Tamanho: ['M', 'P'] } })).toEqual({
      names: ['Camiseta'],
      total: 1,
    });
    expect(await names({ options: { Tamanho: ['G'], Cor: ['Azul'] } })).toEqual({
      names: [],
      total: 0,
    });
    expect(await names({ options: { Tamanho: ['G'], Cor: ['Preta'] } })).toEqual({
      names: ['Camiseta'],
      total: 1,
    });
    // With the other filters: the rug's price is its own (R$ 200), over the maximum.
    expect(await names({ options: { Tamanho: ['G'] }, maxCents: 10000 })).toEqual({
      names: ['Camiseta'],
      total: 1,
    });
    expect(await names({ options: { Tamanho: ['G'] }, q: 'tapete' })).toEqual({
      names: ['Tapete'],
      total: 1,
    });
    // A name that is no option matches nothing, and a value with quotes is only a value.
    expect(await names({ options: { Cor: ["Azul' or '1'='1"] } })).toEqual({
      names: [],
      total: 0,
    });

    // A sale that sells the last black G takes the shirt out of 'G'.
    await db()
      .update(productVariants)
      .set({ stockQuantity: 0 })
      .where(eq(productVariants.id, id(0x104)));
    expect(await names({ options: { Tamanho: ['G'] } })).toEqual({ names: ['Tapete'], total: 1 });
  });

  it('counts the products of the result with each value in stock, an option chosen counted without itself', async () => {
    await seed();
    // Each product's values together, in its order, the newest product's first: the rug's, then
    // the shirt's P and G (M is only sold out).
    expect(await optionFacets(db(), {})).toEqual([
      {
        name: 'Tamanho',
        values: [
          { value: '2 × 3 m', count: 1, selected: false },
          { value: 'P', count: 1, selected: false },
          { value: 'G', count: 2, selected: false },
        ],
      },
      {
        name: 'Cor',
        values: [
          { value: 'Azul', count: 1, selected: false },
          { value: 'Preta', count: 1, selected: false },
        ],
      },
    ]);
    // The current result only: a search for the mug offers no option at all.
    expect(await optionFacets(db(), { q: 'caneca' })).toEqual([]);

    // 'Preta' chosen: the sizes counted among black variants; the colours without the choice.
    expect(await optionFacets(db(), { options: { Cor: ['Preta'] } })).toEqual([
      {
        name: 'Tamanho',
        values: [
          { value: 'P', count: 1, selected: false },
          { value: 'G', count: 1, selected: false },
        ],
      },
      {
        name: 'Cor',
        values: [
          { value: 'Azul', count: 1, selected: false },
          { value: 'Preta', count: 1, selected: true },
        ],
      },
    ]);
    // A value chosen that nothing has in stock stays listed, to be taken off.
    const facets = await optionFacets(db(), { options: { Tamanho: ['M'] } });
    expect(facets.find(({ name }) => name === 'Tamanho')?.values).toContainEqual({
      value: 'M',
      count: 0,
      selected: true,
    });
  });

  it("shows 'a partir de' the lowest variant price, its 'de' price and the first variant's picture", async () => {
    await seed();
    const { products } = await searchProducts(db(), { perPage: 50 });
    const card = (name: string) => products.find((product) => product.name === name)?.card;
    expect(card('Tapete')).toEqual({
      fromCents: 15000,
      toCents: 30000,
      compareAtCents: 18000,
      variantCount: 2,
      imageUrl: null,
    });
    // One price for every variant (the product's), the first variant's own picture.
    expect(card('Camiseta')).toEqual({
      fromCents: 5000,
      toCents: 5000,
      compareAtCents: null,
      variantCount: 5,
      imageUrl: null,
    });
    await db()
      .update(productVariants)
      .set({ position: 0 })
      .where(eq(productVariants.id, id(0x103)));
    const after = await searchProducts(db(), { perPage: 50, q: 'camiseta' });
    expect(after.products[0]?.card?.imageUrl).toBe('/g-azul.svg');
    // A product of one default variant: its own price, one variant.
    expect(card('Caneca')).toMatchObject({ fromCents: 3000, toCents: 3000, variantCount: 1 });
  });

  it('sorts and filters by the price the card shows, kept by the database whoever writes a price', async () => {
    await seed();
    const fromPrices = async () =>
      (await db().select({ name: products.name, from: products.fromPriceCents }).from(products))
        .map(({ name, from }) => `${name} ${from}`)
        .sort();
    // The rug costs 200,00 but its cheapest variant 150,00.
    expect(await fromPrices()).toEqual(['Camiseta 5000', 'Caneca 3000', 'Tapete 15000']);
    expect((await names({ sort: 'price-asc' })).names).toEqual(['Caneca', 'Camiseta', 'Tapete']);
    expect((await names({ maxCents: 16000 })).names).toEqual(['Caneca', 'Tapete', 'Camiseta']);
    expect((await names({ minCents: 16000 })).total).toBe(0);

    // Plain SQL, as a script would write: each change is worked out again.
    const run = (statement: ReturnType<typeof sql>) => db().execute(statement);
    await run(sql`update product_variants set price_cents = null where id = ${id(0x202)}`);
    expect(await fromPrices()).toContain('Tapete 20000');
    await run(sql`update products set price_cents = 40000 where id = ${id(2)}`);
    expect(await fromPrices()).toContain('Tapete 30000');
    await run(sql`delete from product_variants where id = ${id(0x201)}`);
    expect(await fromPrices()).toContain('Tapete 40000');
    await run(sql`insert into product_variants (product_id, option1, price_cents, stock_quantity)
      values (${id(2)}, '1 × 1 m', 1000, 1)`);
    await run(sql`update products set from_price_cents = 999999 where id = ${id(2)}`);
    expect(await fromPrices()).toContain('Tapete 1000');
    // A sale writes stock only and leaves the price alone.
    await run(sql`update product_variants set stock_quantity = 0 where product_id = ${id(2)}`);
    expect(await fromPrices()).toEqual(['Camiseta 5000', 'Caneca 3000', 'Tapete 1000']);
    expect((await names({ sort: 'price-desc' })).names).toEqual(['Camiseta', 'Caneca', 'Tapete']);
  });

  it('reads the filter from the URL, one parameter per value, and writes it back', async () => {
    const parse = (search: string) =>
      parseCatalogParams(new URLSearchParams(search), { categories: [], perPage: 12 });
    const { query, notices } = parse(
      'opcao=Tamanho%3AG&opcao=Tamanho:GG&opcao=Cor:Azul&opcao=Tamanho:G&opcao=semvalor&opcao=',
    );
    expect(query.options).toEqual({ Tamanho: ['G', 'GG'], Cor: ['Azul'] });
    expect(notices).toEqual(['O filtro “semvalor” não existe e foi ignorado.']);
    const many = parse(Array.from({ length: 30 }, (_, n) => `opcao=Cor:${n}`).join('&'));
    expect(many.query.options?.Cor).toHaveLength(20);
    expect(many.notices).toHaveLength(1);
  });

  it('lists the sample store’s rug and T-shirt by size', async () => {
    await seedSampleStore(db());
    const rugs = await searchProducts(db(), { perPage: 50, options: { Tamanho: ['2 × 3 m'] } });
    expect(rugs.products.map(({ name }) => name)).toEqual(['Tapete Geométrico para Sala']);
    expect(rugs.products[0]?.card).toMatchObject({ fromCents: 29990, toCents: 59990 });
    const shirts = await searchProducts(db(), {
      perPage: 50,
      options: { Tamanho: ['GG'], Cor: ['Azul'] },
    });
    // GG in blue is the sample's sold-out combination.
    expect(shirts.total).toBe(0);
    const facets = await optionFacets(db(), { q: 'camiseta' });
    expect(facets.map(({ name, values }) => [name, values.map(({ value }) => value)])).toEqual([
      ['Tamanho', ['P', 'M', 'G', 'GG']],
      ['Cor', ['Branca', 'Preta', 'Azul']],
    ]);
  });
});
