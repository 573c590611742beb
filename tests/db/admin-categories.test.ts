import { randomUUID } from 'node:crypto';

import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';

import { categories, products } from '~/db/schema';
import { CATEGORY_MESSAGES } from '~/modules/catalog/index.admin';
import {
  createCategory,
  deleteCategory,
  listAdminCategories,
  setCategoryFeatured,
  updateCategory,
} from '~/modules/catalog/index.admin.server';
import { listCategories } from '~/modules/catalog/index.server';

import { describeDb } from '../support/db';

describeDb('admin categories', ({ db }) => {
  async function category(name: string, extra: { featured?: boolean } = {}) {
    const [row] = await db()
      .insert(categories)
      .values({ name, ...extra })
      .returning();
    return row!.id;
  }
  async function product(name: string, categoryId: string | null) {
    const [row] = await db()
      .insert(products)
      .values({ name, priceCents: 1000, categoryId })
      .returning();
    return row!.id;
  }
  async function categoryOf(productId: string) {
    const [row] = await db()
      .select({ categoryId: products.categoryId })
      .from(products)
      .where(eq(products.id, productId));
    return row?.categoryId;
  }

  it('lists categories newest first with their number of products', async () => {
    const audio = await category('Áudio');
    await new Promise((resolve) => setTimeout(resolve, 5));
    const empty = await category('Vazia');
    await product('Fone', audio);
    await product('Caixa', audio);
    await product('Solto', null);

    const listed = await listAdminCategories(db());

    expect(listed.map((c) => [c.id, c.productCount, c.featured])).toEqual([
      [empty, 0, false],
      [audio, 2, false],
    ]);
  });

  it('creates once per form key, however often the form is sent', async () => {
    const id = randomUUID();
    const input = { id, name: 'Áudio', description: 'Fones e caixas' };

    const [first, second] = await Promise.all([
      createCategory(db(), input),
      createCategory(db(), input),
    ]);
    const third = await createCategory(db(), input);

    expect([first, second, third]).toEqual([
      { ok: true, id },
      { ok: true, id },
      { ok: true, id },
    ]);
    const rows = await db().select().from(categories);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id, name: 'Áudio', description: 'Fones e caixas' });
    // The same key with other values is an old form sent again, not this one.
    expect(await createCategory(db(), { id, name: 'Vídeo', description: null })).toMatchObject({
      ok: false,
      status: 409,
      error: CATEGORY_MESSAGES.formReused,
    });
  });

  it('refuses a name already used, ignoring case and accents, on create and on edit', async () => {
    const audio = await category('Áudio');
    const video = await category('Vídeo');

    const created = await createCategory(db(), {
      id: randomUUID(),
      name: 'AUDIO',
      description: null,
    });
    expect(created).toEqual({
      ok: false,
      status: 409,
      error: CATEGORY_MESSAGES.nameTaken,
      field: 'name',
    });
    expect(await updateCategory(db(), { id: video, name: 'áudio', description: null })).toEqual(
      created,
    );
    // Renaming a category to its own name in other capitals is an edit, not a clash.
    expect(await updateCategory(db(), { id: audio, name: 'ÁUDIO', description: 'Som' })).toEqual({
      ok: true,
      id: audio,
    });
    const [row] = await db().select().from(categories).where(eq(categories.id, audio));
    expect(row).toMatchObject({ name: 'ÁUDIO', description: 'Som' });
    expect(await db().select().from(categories)).toHaveLength(2);
  });

  it('two staff creating the same name at once make one category', async () => {
    const results = await Promise.all(
      ['Informática', 'informatica'].map((name) =>
        createCategory(db(), { id: randomUUID(), name, description: null }),
      ),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(await db().select().from(categories)).toHaveLength(1);
  });

  it('answers 404 for an edit, a switch or a delete of a category that is gone', async () => {
    const gone = randomUUID();
    const notFound = { ok: false, status: 404, error: CATEGORY_MESSAGES.notFound };
    expect(await updateCategory(db(), { id: gone, name: 'X', description: null })).toEqual(
      notFound,
    );
    expect(await setCategoryFeatured(db(), { id: gone, featured: true })).toEqual(notFound);
    expect(await deleteCategory(db(), { id: gone })).toEqual(notFound);
  });

  it("saves 'Selecionada', and the home offers the featured ones, or all while none is", async () => {
    const audio = await category('Áudio');
    const informatica = await category('Informática');
    const acessorios = await category('Acessórios');
    for (const id of [audio, informatica, acessorios]) await product(`Produto ${id}`, id);

    expect(
      (await listCategories(db(), { featuredOnly: true, withProducts: true })).map((c) => c.name),
    ).toEqual(['Acessórios', 'Áudio', 'Informática']);

    expect(await setCategoryFeatured(db(), { id: informatica, featured: true })).toEqual({
      ok: true,
      id: informatica,
    });
    await setCategoryFeatured(db(), { id: audio, featured: true });
    expect(await listCategories(db(), { featuredOnly: true, withProducts: true })).toEqual([
      { id: audio, name: 'Áudio', slug: 'audio' },
      { id: informatica, name: 'Informática', slug: 'informatica' },
    ]);
    expect((await listAdminCategories(db())).find((c) => c.id === acessorios)?.featured).toBe(
      false,
    );

    await setCategoryFeatured(db(), { id: audio, featured: false });
    await setCategoryFeatured(db(), { id: informatica, featured: false });
    expect(await listCategories(db(), { featuredOnly: true, withProducts: true })).toHaveLength(3);
  });

  it('leaves a category without products off the home page, featured or not', async () => {
    const audio = await category('Áudio');
    const empty = await category('Vazia');
    const emptyFeatured = await category('Destaque vazio', { featured: true });
    await product('Fone', audio);
    await setCategoryFeatured(db(), { id: audio, featured: true });

    expect(
      (await listCategories(db(), { featuredOnly: true, withProducts: true })).map((c) => c.id),
    ).toEqual([audio]);
    // The catalogue's filters and the admin still list them all.
    expect((await listCategories(db())).map((c) => c.id).sort()).toEqual(
      [audio, empty, emptyFeatured].sort(),
    );

    // Its last product moved elsewhere, the category leaves the home page too.
    await db().update(products).set({ categoryId: empty });
    expect(
      (await listCategories(db(), { featuredOnly: true, withProducts: true })).map((c) => c.id),
    ).toEqual([]);
    await setCategoryFeatured(db(), { id: audio, featured: false });
    await setCategoryFeatured(db(), { id: emptyFeatured, featured: false });
    expect(
      (await listCategories(db(), { featuredOnly: true, withProducts: true })).map((c) => c.id),
    ).toEqual([empty]);
  });

  it('deletes an empty category without asking about products', async () => {
    const empty = await category('Vazia');
    expect(await deleteCategory(db(), { id: empty })).toEqual({ ok: true, id: empty, moved: 0 });
    expect(await db().select().from(categories)).toEqual([]);
  });

  it('refuses to delete a category with products without a choice, saying how many', async () => {
    const audio = await category('Áudio');
    const fones = await Promise.all(['Fone', 'Caixa', 'Headset'].map((n) => product(n, audio)));

    const refused = await deleteCategory(db(), { id: audio });

    expect(refused).toEqual({
      ok: false,
      status: 409,
      error: `Esta categoria tem 3 produtos. ${CATEGORY_MESSAGES.productsChoice}`,
      field: 'products',
    });
    expect(await db().select().from(categories)).toHaveLength(1);
    for (const id of fones) expect(await categoryOf(id)).toBe(audio);
  });

  it('moves the products to another category, then deletes', async () => {
    const audio = await category('Áudio');
    const som = await category('Som');
    const other = await category('Outra');
    const fone = await product('Fone', audio);
    const caixa = await product('Caixa', audio);
    const teclado = await product('Teclado', other);

    expect(
      await deleteCategory(db(), { id: audio, products: { action: 'move', targetId: som } }),
    ).toEqual({ ok: true, id: audio, moved: 2 });

    expect(await categoryOf(fone)).toBe(som);
    expect(await categoryOf(caixa)).toBe(som);
    expect(await categoryOf(teclado)).toBe(other);
    const left = await listAdminCategories(db());
    expect(left.map((c) => [c.name, c.productCount]).sort()).toEqual([
      ['Outra', 1],
      ['Som', 2],
    ]);
  });

  it('two deletes moving products into each other at once: one wins, none is lost', async () => {
    const audio = await category('Áudio');
    const som = await category('Som');
    const fone = await product('Fone', audio);
    const caixa = await product('Caixa', som);

    const results = await Promise.all([
      deleteCategory(db(), { id: audio, products: { action: 'move', targetId: som } }),
      deleteCategory(db(), { id: som, products: { action: 'move', targetId: audio } }),
    ]);

    expect(results.filter((result) => result.ok)).toHaveLength(1);
    // The second finds the category it was moving into already deleted.
    expect(results.find((result) => !result.ok)).toMatchObject({
      status: 409,
      error: CATEGORY_MESSAGES.moveTargetMissing,
    });
    const [left] = await db().select().from(categories);
    expect(await categoryOf(fone)).toBe(left!.id);
    expect(await categoryOf(caixa)).toBe(left!.id);
  });

  it('leaves the products without a category when asked', async () => {
    const audio = await category('Áudio');
    const fone = await product('Fone', audio);

    expect(await deleteCategory(db(), { id: audio, products: { action: 'detach' } })).toEqual({
      ok: true,
      id: audio,
      moved: 0,
    });
    expect(await categoryOf(fone)).toBeNull();
    expect(await db().select().from(products)).toHaveLength(1);
  });

  it('refuses a move to itself, to a category that is gone or to a malformed id', async () => {
    const audio = await category('Áudio');
    const fone = await product('Fone', audio);

    const toItself = await deleteCategory(db(), {
      id: audio,
      products: { action: 'move', targetId: audio },
    });
    const toGone = await deleteCategory(db(), {
      id: audio,
      products: { action: 'move', targetId: randomUUID() },
    });
    const toJunk = await deleteCategory(db(), {
      id: audio,
      products: { action: 'move', targetId: 'x' },
    });

    expect(toItself).toMatchObject({ ok: false, status: 400, field: 'targetId' });
    expect(toGone).toMatchObject({
      ok: false,
      status: 409,
      error: CATEGORY_MESSAGES.moveTargetMissing,
    });
    expect(toJunk).toMatchObject({ ok: false, status: 409 });
    expect(await categoryOf(fone)).toBe(audio);
    expect(await db().select().from(categories)).toHaveLength(1);
  });
});
