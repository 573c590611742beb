import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';

import { categories, products } from '~/db/schema';
import { seedSampleStore } from '~/flows/seed-sample-store.server';
import {
  listCategories,
  putProduct,
  searchProducts,
  suggestSearch,
} from '~/modules/catalog/index.server';
import type { CatalogQuery } from '~/modules/catalog';

import { describeDb, queryRows } from '../support/db';

describeDb('catalog search', ({ db }) => {
  const base = Date.parse('2026-01-01T12:00:00Z');

  /** Inserts products in order, each one second newer than the one before. */
  async function seed(
    rows: { name: string; description?: string; priceCents?: number; categoryId?: string }[],
  ) {
    return db()
      .insert(products)
      .values(
        rows.map((row, index) => ({
          priceCents: 1000,
          ...row,
          createdAt: new Date(base + index * 1000),
        })),
      )
      .returning();
  }

  async function names(query: Omit<CatalogQuery, 'perPage'> & { perPage?: number }) {
    const result = await searchProducts(db(), { perPage: 50, ...query });
    return result.products.map((product) => product.name);
  }

  it('ignores case and accents in the name, the description and the words typed', async () => {
    await seed([
      { name: 'Fone de Ouvido', description: 'Som limpo' },
      { name: 'Café Especial', description: 'Grãos torrados' },
      { name: 'Caixa de Som', description: 'Graves de ÁUDIO potente' },
      // Typed on a keyboard that sends the accent as a separate combining mark.
      { name: 'Pe\u0301 de Moleque', description: '' },
    ]);

    expect(await names({ q: 'fone' })).toEqual(['Fone de Ouvido']);
    expect(await names({ q: 'FONE' })).toEqual(['Fone de Ouvido']);
    expect(await names({ q: 'cafe' })).toEqual(['Café Especial']);
    expect(await names({ q: 'CAFÉ' })).toEqual(['Café Especial']);
    expect(await names({ q: 'graos' })).toEqual(['Café Especial']);
    expect(await names({ q: 'AUDIO' })).toEqual(['Caixa de Som']);
    expect(await names({ q: 'PÉ DE' })).toEqual(['Pe\u0301 de Moleque']);
    expect(await names({ q: 'som' })).toEqual(['Caixa de Som', 'Fone de Ouvido']);
  });

  it('needs every word typed, in any order, and ignores extra spaces', async () => {
    await seed([{ name: 'Fone de Ouvido Bluetooth' }, { name: 'Caixa Bluetooth' }]);

    expect(await names({ q: '  bluetooth   fone ' })).toEqual(['Fone de Ouvido Bluetooth']);
    expect(await names({ q: 'bluetooth' })).toHaveLength(2);
    expect(await names({ q: 'fone caixa' })).toEqual([]);
    expect(await names({ q: '   ' })).toHaveLength(2);
  });

  it('searches for %, _ and \\ literally', async () => {
    await seed([
      { name: 'Camiseta 100% algodão' },
      { name: 'Cabo_USB' },
      { name: 'Cabo USB' },
      { name: 'Barra \\ invertida' },
    ]);

    expect(await names({ q: '%' })).toEqual(['Camiseta 100% algodão']);
    expect(await names({ q: '100%' })).toEqual(['Camiseta 100% algodão']);
    expect(await names({ q: 'cabo_usb' })).toEqual(['Cabo_USB']);
    expect(await names({ q: '\\' })).toEqual(['Barra \\ invertida']);
  });

  it('finds a product by its new name after it is edited', async () => {
    const [product] = await seed([{ name: 'Mouse' }]);
    await putProduct(db(), { ...product!, name: 'Teclado Ergonômico' });

    expect(await names({ q: 'ergonomico' })).toEqual(['Teclado Ergonômico']);
    expect(await names({ q: 'mouse' })).toEqual([]);
  });

  it('filters by category and by an inclusive price range', async () => {
    const [audio, computing] = await db()
      .insert(categories)
      .values([{ name: 'Áudio' }, { name: 'Informática' }])
      .returning();
    await seed([
      { name: 'Fone', priceCents: 999, categoryId: audio!.id },
      { name: 'Caixa', priceCents: 1000, categoryId: audio!.id },
      { name: 'Mouse', priceCents: 5000, categoryId: computing!.id },
      { name: 'Monitor', priceCents: 123456, categoryId: computing!.id },
      { name: 'Sem categoria', priceCents: 2000 },
    ]);

    expect(await names({ categoryId: audio!.id })).toEqual(['Caixa', 'Fone']);
    expect(await names({ categoryId: 'not-a-uuid' })).toEqual([]);
    expect(await names({ minCents: 1000, maxCents: 5000 })).toEqual([
      'Sem categoria',
      'Mouse',
      'Caixa',
    ]);
    expect(await names({ minCents: 5000 })).toEqual(['Monitor', 'Mouse']);
    expect(await names({ maxCents: 999 })).toEqual(['Fone']);
    expect(await names({ categoryId: computing!.id, maxCents: 100000, q: 'mou' })).toEqual([
      'Mouse',
    ]);

    const [first] = (await searchProducts(db(), { perPage: 1, sort: 'price-asc' })).products;
    expect(first).toMatchObject({ name: 'Fone', category: { id: audio!.id, name: 'Áudio' } });
    const uncategorised = await searchProducts(db(), { perPage: 10, q: 'sem categoria' });
    expect(uncategorised.products[0]!.category).toBeNull();
  });

  it('sorts newest first by default, by price either way, and by name as Brazilians read', async () => {
    await seed([
      { name: 'Zinco', priceCents: 300 },
      { name: 'Água', priceCents: 100 },
      { name: 'óculos', priceCents: 400 },
      { name: 'abacate', priceCents: 250 },
      { name: 'Ovo', priceCents: 200 },
    ]);

    expect(await names({})).toEqual(['Ovo', 'abacate', 'óculos', 'Água', 'Zinco']);
    expect(await names({ sort: 'newest' })).toEqual(['Ovo', 'abacate', 'óculos', 'Água', 'Zinco']);
    expect(await names({ sort: 'price-asc' })).toEqual([
      'Água',
      'Ovo',
      'abacate',
      'Zinco',
      'óculos',
    ]);
    expect(await names({ sort: 'price-desc' })).toEqual([
      'óculos',
      'Zinco',
      'abacate',
      'Ovo',
      'Água',
    ]);
    expect(await names({ sort: 'name' })).toEqual(['abacate', 'Água', 'óculos', 'Ovo', 'Zinco']);
  });

  it('ranks a search by relevance: name starts, whole words, name, then description; ties newest', async () => {
    await seed([
      { name: 'Capa para Celular', description: 'Combina com seu fone de ouvido' },
      { name: 'Fone de Ouvido Bluetooth Pro', description: 'Som limpo' },
      { name: 'Headset Gamer com Microfone', description: 'Áudio surround' },
      { name: 'Caixa de Som', description: 'Conecta ao fone por cabo' },
      { name: 'Suporte para Fone', description: 'Madeira' },
      { name: 'Fone Esportivo', description: 'Resistente ao suor' },
      { name: 'Cabo de Áudio', description: 'Liga o fone ao computador' },
    ]);

    // Starting with "fone" (newest first among them), then "fone" as a word elsewhere in the
    // name, then inside a word ("Microfone"), then the description only (newest first).
    expect(await names({ q: 'Fone', sort: 'relevance' })).toEqual([
      'Fone Esportivo',
      'Fone de Ouvido Bluetooth Pro',
      'Suporte para Fone',
      'Headset Gamer com Microfone',
      'Cabo de Áudio',
      'Caixa de Som',
      'Capa para Celular',
    ]);
    // The phrase typed first, then every word in the name, then the words split between the
    // name and the description, accents aside.
    expect(await names({ q: 'fone de ouvido', sort: 'relevance' })).toEqual([
      'Fone de Ouvido Bluetooth Pro',
      'Capa para Celular',
    ]);
    expect(await names({ q: 'audio fone', sort: 'relevance' })).toEqual([
      'Cabo de Áudio',
      'Headset Gamer com Microfone',
    ]);
    // The same matches in any other order: relevance only reorders them.
    expect((await names({ q: 'fone', sort: 'relevance' })).sort()).toEqual(
      (await names({ q: 'fone', sort: 'name' })).sort(),
    );
    // Nothing to rank without a search: the newest first.
    expect(await names({ sort: 'relevance' })).toEqual(await names({ sort: 'newest' }));

    const second = await searchProducts(db(), {
      perPage: 3,
      page: 2,
      q: 'fone',
      sort: 'relevance',
    });
    expect(second.products.map((product) => product.name)).toEqual([
      'Headset Gamer com Microfone',
      'Cabo de Áudio',
      'Caixa de Som',
    ]);
  });

  it('pages in the database, with the total, and gives the last page for a later one', async () => {
    await seed(['A', 'B', 'C', 'D', 'E'].map((name) => ({ name })));

    const first = await searchProducts(db(), { perPage: 2, sort: 'name' });
    expect(first).toMatchObject({ total: 5, page: 1, pageCount: 3 });
    expect(first.products.map((product) => product.name)).toEqual(['A', 'B']);

    expect(await names({ perPage: 2, page: 2, sort: 'name' })).toEqual(['C', 'D']);

    const late = await searchProducts(db(), { perPage: 2, page: 9, sort: 'name' });
    expect(late).toMatchObject({ total: 5, page: 3, pageCount: 3 });
    expect(late.products.map((product) => product.name)).toEqual(['E']);

    const none = await searchProducts(db(), { perPage: 2, page: 4, q: 'nada disso' });
    expect(none).toEqual({ products: [], total: 0, page: 1, pageCount: 1 });
  });

  it('pages a text search the same way', async () => {
    await seed(
      ['Cabo A', 'Cabo B', 'Fone', 'Cabo C', 'Cabo D', 'Cabo E'].map((name) => ({ name })),
    );

    const second = await searchProducts(db(), { perPage: 2, page: 2, sort: 'name', q: 'cabo' });
    expect(second).toMatchObject({ total: 5, page: 2, pageCount: 3 });
    expect(second.products.map((product) => product.name)).toEqual(['Cabo C', 'Cabo D']);

    const late = await searchProducts(db(), { perPage: 2, page: 7, sort: 'name', q: 'cabo' });
    expect(late).toMatchObject({ total: 5, page: 3, pageCount: 3 });
    expect(late.products.map((product) => product.name)).toEqual(['Cabo E']);

    const none = await searchProducts(db(), { perPage: 2, page: 3, q: 'teclado' });
    expect(none).toEqual({ products: [], total: 0, page: 1, pageCount: 1 });
  });

  it('can answer a text search from the trigram index wherever pg_trgm exists', async () => {
    const [available] = await queryRows<{ count: number }>(
      db(),
      sql`select count(*)::int as count from pg_available_extensions where name = 'pg_trgm'`,
    );
    const indexed = await queryRows(
      db(),
      sql`select 1 from pg_indexes where indexname = 'products_search_text_trgm_idx'`,
    );
    expect(indexed.length).toBe(available!.count);
    if (indexed.length === 0) return;
    await seed([{ name: 'Fone' }]);
    const plan = await db().transaction(async (tx) => {
      // With a handful of rows a scan is cheaper; this asks whether the index fits the query.
      await tx.execute(sql`set local enable_seqscan = off`);
      return queryRows<{ 'QUERY PLAN': string }>(
        tx,
        sql`explain select count(*) from products
            where products.search_text like '%' || vitrine_fold(${'fone'}) || '%' escape '\\'`,
      );
    });
    expect(plan.map((row) => row['QUERY PLAN']).join('\n')).toContain(
      'products_search_text_trgm_idx',
    );
  });

  it('finds Portuguese words in the plural and the singular, accents aside', async () => {
    await seed([
      { name: 'Fone de Ouvido Bluetooth', description: 'Som limpo' },
      { name: 'Fonte de Alimentação', description: 'Para notebooks' },
      { name: 'Teclado Mecânico RGB', description: 'Switches azuis' },
      { name: 'Café Especial', description: 'Grãos torrados' },
      { name: 'Limão Siciliano', description: 'Colhido à mão' },
      { name: 'Pão de Queijo', description: 'Congelado' },
      { name: 'Papel Sulfite', description: 'Resma' },
      { name: 'Suporte', description: 'Segura dois teclados e os mouses da mesa' },
    ]);

    expect(await names({ q: 'fones' })).toEqual(['Fone de Ouvido Bluetooth']);
    expect(await names({ q: 'Teclados' })).toEqual(['Suporte', 'Teclado Mecânico RGB']);
    expect(await names({ q: 'teclado' })).toEqual(['Suporte', 'Teclado Mecânico RGB']);
    expect(await names({ q: 'mouse' })).toEqual(['Suporte']);
    expect(await names({ q: 'cafés' })).toEqual(['Café Especial']);
    expect(await names({ q: 'CAFES' })).toEqual(['Café Especial']);
    expect(await names({ q: 'grao' })).toEqual(['Café Especial']);
    expect(await names({ q: 'limoes' })).toEqual(['Limão Siciliano']);
    expect(await names({ q: 'Limões sicilianos' })).toEqual(['Limão Siciliano']);
    expect(await names({ q: 'pães' })).toEqual(['Pão de Queijo']);
    expect(await names({ q: 'papeis' })).toEqual(['Papel Sulfite']);
    expect(await names({ q: 'notebook' })).toEqual(['Fonte de Alimentação']);
    expect(await names({ q: 'sons' })).toEqual(['Fone de Ouvido Bluetooth']);
    expect(await names({ q: 'fones de ouvido' })).toEqual(['Fone de Ouvido Bluetooth']);
    // Plurals are no wildcard: 'fones' is not 'fontes'.
    expect(await names({ q: 'fontes' })).toEqual(['Fonte de Alimentação']);
    expect(await names({ q: 'teclados fones' })).toEqual([]);
  });

  it('finds the same products for the singular and the plural, whole words first', async () => {
    await seed([
      { name: 'Microfone Condensador', description: 'Para gravar podcasts' },
      { name: 'Fone de Ouvido Bluetooth', description: 'Som limpo' },
      { name: 'Mouse Sem Fio', description: 'Silencioso' },
      { name: 'Porta-Cabos de Mesa', description: 'Organiza os fios' },
      { name: 'Cabo USB-C', description: 'Um metro' },
      { name: 'Limão Siciliano', description: 'Colhido à mão' },
      { name: 'Limões Tahiti', description: 'Caixa com 12' },
      { name: 'Papel Sulfite', description: 'Resma' },
      { name: 'Capa de Papéis', description: 'Plástica' },
      { name: 'Canal Lateral', description: 'Perfil de alumínio' },
      { name: 'Flor de Sal', description: 'Moída na hora' },
      { name: 'Som Automotivo', description: 'Bluetooth' },
      { name: 'Itens de Festa', description: 'Balões' },
    ]);

    const pairs: [string, string][] = [
      ['fone', 'fones'],
      ['cabo', 'cabos'],
      ['limao', 'limões'],
      ['papel', 'papeis'],
      ['canal', 'canais'],
      ['flor', 'flores'],
      ['som', 'sons'],
      ['item', 'itens'],
      ['mouse', 'mouses'],
    ];
    for (const [singular, plural] of pairs) {
      const found = await names({ q: singular, sort: 'relevance' });
      expect(found.length, singular).toBeGreaterThan(0);
      expect(await names({ q: plural, sort: 'relevance' }), plural).toEqual(found);
    }
    // A name starting with the word first; one holding it inside a word ("Microfone") or further
    // on ("Porta-Cabos") after it.
    expect(await names({ q: 'fones', sort: 'relevance' })).toEqual([
      'Fone de Ouvido Bluetooth',
      'Microfone Condensador',
    ]);
    expect(await names({ q: 'cabo', sort: 'relevance' })).toEqual([
      'Cabo USB-C',
      'Porta-Cabos de Mesa',
    ]);
    expect(await names({ q: 'limoes', sort: 'relevance' })).toEqual([
      'Limões Tahiti',
      'Limão Siciliano',
    ]);
  });

  it('finds the start of a word as the shopper types it', async () => {
    await seed([
      { name: 'Teclado Mecânico RGB' },
      { name: 'Fone de Ouvido Bluetooth' },
      { name: 'Tecido Sintético' },
    ]);

    expect(await names({ q: 'tecl' })).toEqual(['Teclado Mecânico RGB']);
    expect(await names({ q: 'teclad' })).toEqual(['Teclado Mecânico RGB']);
    expect(await names({ q: 'tec' })).toEqual(['Tecido Sintético', 'Teclado Mecânico RGB']);
    expect(await names({ q: 'teclados mec' })).toEqual(['Teclado Mecânico RGB']);
    expect(await names({ q: 'fone de ouv' })).toEqual(['Fone de Ouvido Bluetooth']);
    expect(await names({ q: 'MECÂ' })).toEqual(['Teclado Mecânico RGB']);
  });

  it('ranks plurals as the words they stand for', async () => {
    await seed([
      { name: 'Capa para Celular', description: 'Combina com seu fone de ouvido' },
      { name: 'Fone de Ouvido Bluetooth Pro', description: 'Som limpo' },
      { name: 'Headset Gamer com Microfone', description: 'Áudio surround' },
      { name: 'Caixa de Som', description: 'Conecta ao fone por cabo' },
      { name: 'Suporte para Fone', description: 'Madeira' },
      { name: 'Fone Esportivo', description: 'Resistente ao suor' },
      { name: 'Cabo de Áudio', description: 'Liga os fones ao computador' },
    ]);

    // Names starting with the word (newest first), the word elsewhere in the name, inside a word
    // ("Microfone", found as 'fone' finds it), then the descriptions: as 'fone' ranks them.
    const ranked = [
      'Fone Esportivo',
      'Fone de Ouvido Bluetooth Pro',
      'Suporte para Fone',
      'Headset Gamer com Microfone',
      'Cabo de Áudio',
      'Caixa de Som',
      'Capa para Celular',
    ];
    expect(await names({ q: 'fones', sort: 'relevance' })).toEqual(ranked);
    expect(await names({ q: 'fone', sort: 'relevance' })).toEqual(ranked);
    expect(await names({ q: 'Fones de ouvido', sort: 'relevance' })).toEqual([
      'Fone de Ouvido Bluetooth Pro',
      'Capa para Celular',
    ]);
    expect(await names({ q: 'suportes fone', sort: 'relevance' })).toEqual(['Suporte para Fone']);
    expect(await names({ q: 'cabos audio', sort: 'relevance' })).toEqual(['Cabo de Áudio']);
  });

  it("finds the sample store's fones and teclados", async () => {
    await seedSampleStore(db());

    expect(await names({ q: 'fones', sort: 'relevance' })).toContain(
      'Fone de Ouvido Bluetooth Pro',
    );
    expect((await names({ q: 'fones', sort: 'relevance' }))[0]).toBe(
      'Fone de Ouvido Bluetooth Pro',
    );
    expect((await names({ q: 'Teclados', sort: 'relevance' }))[0]).toBe('Teclado Mecânico RGB');
    // The headphones first, the headset with a microphone after, for the singular and the plural.
    const fones = await names({ q: 'fones', sort: 'relevance' });
    expect(fones).toEqual(await names({ q: 'fone', sort: 'relevance' }));
    expect(fones).toHaveLength(2);
  });

  it('suggests the closest word of a name for a search that found nothing', async () => {
    const [audio] = await db()
      .insert(categories)
      .values([{ name: 'Áudio' }])
      .returning();
    await seed([
      { name: 'Teclado Mecânico RGB' },
      { name: 'Café Especial' },
      { name: 'Fone de Ouvido', categoryId: audio!.id },
      { name: 'Fone Esportivo', categoryId: audio!.id },
    ]);
    const suggest = (q: string, query: { categoryId?: string } = {}) =>
      suggestSearch(db(), { q, ...query });

    expect(await suggest('tecaldo')).toBe('teclado');
    expect(await suggest('TECLAOD mecanico')).toBe('teclado mecanico');
    // Shown as the names write it.
    expect(await suggest('cafe especal')).toBe('cafe especial');
    expect(await suggest('cafr')).toBe('café');
    expect(await suggest('fnoe esportivo')).toBe('fone esportivo');
    // Nothing close, nothing the suggestion would find with the same filters, or nothing to fix.
    expect(await suggest('bicicleta')).toBeUndefined();
    expect(await suggest('tecaldo fone')).toBeUndefined();
    expect(await suggest('tecaldo', { categoryId: audio!.id })).toBeUndefined();
    expect(await suggest('fnoe', { categoryId: audio!.id })).toBe('fone');
    expect(await suggest('tecl')).toBeUndefined();
    expect(await suggest('xyz')).toBeUndefined();
  });

  it('can answer a stemmed search from its index', async () => {
    await seed([{ name: 'Fone' }]);
    const plan = await db().transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return queryRows<{ 'QUERY PLAN': string }>(
        tx,
        sql`explain select count(*) from products
            where products.search_vector
              @@ plainto_tsquery('pg_catalog.portuguese', vitrine_singular(vitrine_fold(${'fones'})))`,
      );
    });
    expect(plan.map((row) => row['QUERY PLAN']).join('\n')).toContain('products_search_vector_idx');
  });

  it('lists categories by name, ignoring case and accents', async () => {
    await db()
      .insert(categories)
      .values([
        { name: 'Zebra' },
        { name: 'Informática' },
        { name: 'Áudio' },
        { name: 'acessórios' },
      ]);

    const listed = await listCategories(db());

    expect(listed.map((category) => category.name)).toEqual([
      'acessórios',
      'Áudio',
      'Informática',
      'Zebra',
    ]);
    expect(Object.keys(listed[0]!).sort()).toEqual(['id', 'name', 'slug']);
  });

  it('lists for the menu only the categories that hold a product, featured or not', async () => {
    const [audio, empty, computing] = await db()
      .insert(categories)
      .values([
        { name: 'Áudio', featured: true },
        { name: 'Vazia', featured: true },
        { name: 'Informática' },
      ])
      .returning();
    await seed([
      { name: 'Fone', categoryId: audio!.id },
      { name: 'Mouse', categoryId: computing!.id },
      { name: 'Sem categoria' },
    ]);
    const listed = async (options: { featuredOnly?: boolean; withProducts?: boolean }) =>
      (await listCategories(db(), options)).map((category) => category.name);

    expect(await listed({ withProducts: true })).toEqual(['Áudio', 'Informática']);
    expect(await listed({ featuredOnly: true, withProducts: true })).toEqual(['Áudio']);
    expect(await listed({ featuredOnly: true })).toEqual(['Áudio', 'Vazia']);
    expect(await listed({})).toEqual(['Áudio', 'Informática', 'Vazia']);

    await db().update(products).set({ categoryId: empty!.id });
    expect(await listed({ withProducts: true })).toEqual(['Vazia']);
  });
});
