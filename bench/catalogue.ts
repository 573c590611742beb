// A large generated catalogue for the storefront benches, written in a few set-based statements
// so that 100,000 products take seconds, not minutes.
import { sql } from 'drizzle-orm';

import type { Db } from '~/db/database.server';

import { textArray } from './support';

// Words the generated names are made of; SEARCH_TERM is one of them.
// prettier-ignore
const NOUNS = [
  'Fone', 'Caixa de Som', 'Teclado', 'Mouse', 'Monitor', 'Carregador', 'Cabo', 'Luminária',
  'Mochila', 'Garrafa', 'Caneca', 'Relógio', 'Tapete', 'Almofada', 'Camiseta', 'Tênis', 'Panela',
  'Livro', 'Caderno', 'Bola',
];
// prettier-ignore
const ADJECTIVES = [
  'Azul', 'Preto', 'Branco', 'Compacto', 'Premium', 'Clássico', 'Ecológico', 'Portátil',
  'Térmico', 'Infantil', 'Profissional', 'Básico', 'Confortável', 'Resistente', 'Elegante',
];
// prettier-ignore
const CATEGORIES = [
  'Áudio', 'Informática', 'Acessórios', 'Casa', 'Cozinha', 'Esporte', 'Moda', 'Beleza',
  'Brinquedos', 'Livros', 'Jardim', 'Papelaria',
];
// prettier-ignore
const IMAGES = [
  'fone-bluetooth-pro', 'caixa-de-som-portatil', 'headset-gamer', 'teclado-mecanico-rgb',
  'mouse-sem-fio', 'monitor-27-full-hd', 'carregador-usb-c-65w', 'smartwatch-fitness',
];
export const SEARCH_TERM = 'teclado';
const GENERATED = 'Gerado para o benchmark.';

/** What the benches address in the generated catalogue. */
/**
 * More products than any cache in front of the product page keeps (500), and more than a run
 * asks for, so that none is asked twice (see rotationScript in storefront.ts).
 */
export const MANY_PRODUCTS = 5_000;

export interface GeneratedCatalogue {
  /** The newest generated product's first variant in stock: what the cart holds. */
  variantId: string;
  productSlug: string;
  /** MANY_PRODUCTS generated products' slugs, asked in turn to measure pages no cache holds. */
  productSlugs: string[];
  /** A generated category holding a twelfth of the products. */
  categorySlug: string;
}

// The generated variants' values: sizes, then two colours when the count is even.
// prettier-ignore
const SIZES = ['P', 'M', 'G', 'GG', 'XG', 'XGG', 'EG', 'EGG'];
const COLOURS = [
  { name: 'Azul', color: '#1d4ed8' },
  { name: 'Preta', color: '#1f2937' },
];
/** The option value the benches filter by: a size every generated product with variants has. */
export const OPTION_FILTER = 'Tamanho:G';
export const MAX_VARIANTS = SIZES.length * COLOURS.length;

/**
 * Categories, `count` products and reviews on every third product, added to the store; with
 * `variants` above 1, each generated product is sold in that many variants (sizes, and two
 * colours when even), of rising prices from the product's, some sold out.
 */
export async function fillCatalogue(
  db: Db,
  count: number,
  variants = 1,
): Promise<GeneratedCatalogue> {
  await db.execute(sql`
    insert into categories (name, description)
    select name, ${GENERATED} from unnest(${textArray(CATEGORIES)}) as name`);
  // Building the indexes once, after the insert, is far quicker than updating them row by row
  // (the trigram index above all: 100,000 products took a minute with it in place).
  const indexes = await rows<{ name: string; definition: string }>(
    db,
    sql`select indexname as name, indexdef as definition from pg_indexes
        where schemaname = current_schema() and tablename = 'products'
          and indexname not in (select conname from pg_constraint where conrelid = 'products'::regclass)`,
  );
  for (const index of indexes) await db.execute(sql`drop index ${sql.identifier(index.name)}`);
  // Names end with their number, so their slugs are unique as they are: given here, the slug
  // trigger does not look each one up.
  await db.execute(sql`
    with words as (
      select ${textArray(NOUNS)} as nouns, ${textArray(ADJECTIVES)} as adjectives,
             ${textArray(IMAGES)} as images,
             (select array_agg(id order by name) from categories where description = ${GENERATED})
               as categories
    ),
    generated as (
      select i, images, categories,
        nouns[1 + i % array_length(nouns, 1)] || ' ' ||
          adjectives[1 + (i / array_length(nouns, 1)) % array_length(adjectives, 1)] || ' ' || i
          as name
      from words, generate_series(1, ${count}) as i
    )
    insert into products
      (name, slug, description, price_cents, stock_quantity, category_id, image_urls, created_at,
       updated_at)
    select
      name,
      vitrine_slug(name),
      'Produto de demonstração número ' || i || '. ' ||
        repeat('Descrição detalhada com materiais, medidas e cuidados. ', 1 + i % 4),
      990 + (i * 7919) % 250000,
      (i * 31) % 120,
      categories[1 + i % array_length(categories, 1)],
      array['/sample/' || images[1 + i % 8] || '-1.svg', '/sample/' || images[1 + i % 8] || '-2.svg'],
      now() - make_interval(mins => i),
      now() - make_interval(mins => i)
    from generated`);
  for (const index of indexes) await db.execute(sql.raw(index.definition));
  if (variants > 1) await addVariants(db, variants);
  await db.execute(sql`
    insert into reviews (product_id, customer_name, rating, comment)
    select id, 'Cliente ' || n, 1 + abs(hashtext(id::text || n)) % 5, 'Avaliação gerada.'
    from products, generate_series(1, 2) as n
    where abs(hashtext(id::text)) % 3 = 0`);
  // A store's tables have statistics; right after a bulk insert they would not yet.
  await db.execute(sql`analyze`);
  const product = await one<{ id: string; slug: string }>(
    db,
    sql`select id, slug from products where name like ${`% 1`} and category_id in
          (select id from categories where description = ${GENERATED})`,
  );
  const variant = await one<{ id: string }>(
    db,
    sql`select id from product_variants where product_id = ${product.id} and stock_quantity > 0
        order by position, id limit 1`,
  );
  const category = await one<{ slug: string }>(
    db,
    sql`select slug from categories where description = ${GENERATED} and name = 'Informática'`,
  );
  const slugs = await rows<{ slug: string }>(
    db,
    sql`select slug from products
        where category_id in (select id from categories where description = ${GENERATED})
        order by md5(slug) limit ${MANY_PRODUCTS}`,
  );
  return {
    variantId: variant.id,
    productSlug: product.slug,
    productSlugs: slugs.map((row) => row.slug),
    categorySlug: category.slug,
  };
}

/**
 * Replaces each generated product's default variant with `variants` of its own. The products'
 * stock and cheapest price are worked out in one statement with the variants' row triggers off
 * (ADR 029 keeps them per row: 60,000 rows would take 60,000 updates of their products), all in
 * one transaction, so the store never holds a product without a variant or a stock that is not
 * the sum.
 */
async function addVariants(db: Db, variants: number): Promise<void> {
  const colourCount = variants % 2 === 0 ? COLOURS.length : 1;
  const sizes = SIZES.slice(0, variants / colourCount);
  if (variants > MAX_VARIANTS || sizes.length * colourCount !== variants) {
    throw new Error(`VARIANTS takes 1 to ${SIZES.length}, or an even number up to ${MAX_VARIANTS}`);
  }
  if (!sizes.includes('G')) throw new Error(`VARIANTS must give the size G (${OPTION_FILTER})`);
  const colours = COLOURS.slice(0, colourCount);
  const options = [
    { name: 'Tamanho', values: sizes.map((name) => ({ name })) },
    ...(colourCount > 1 ? [{ name: 'Cor', values: colours }] : []),
  ];
  const generated = sql`(select id from categories where description = ${GENERATED})`;
  await db.transaction(async (tx) => {
    await tx.execute(sql`alter table product_variants disable trigger product_variants_stock`);
    await tx.execute(sql`alter table product_variants disable trigger product_variants_from_price`);
    await tx.execute(sql`alter table products disable trigger products_stock_to_variant`);
    await tx.execute(sql`
      delete from product_variants v using products p
      where p.id = v.product_id and p.category_id in ${generated}`);
    // Sizes first, each in every colour; a bigger size costs R$ 5 more; about one in six sold out.
    await tx.execute(sql`
      insert into product_variants
        (product_id, position, sku, option1, option2, price_cents, compare_at_price_cents,
         stock_quantity, image_urls)
      select p.id, (s.k - 1) * ${colourCount} + c.k,
        upper(p.slug || '-' || s.size || coalesce('-' || nullif(c.colour, ''), '')),
        s.size, nullif(c.colour, ''),
        case when s.k = 1 then null else p.price_cents + (s.k - 1) * 500 end,
        case when hashtext(p.slug) & 3 = 0 then p.price_cents + (s.k - 1) * 500 + 2000 end,
        case when abs(hashtext(p.slug || s.k || c.k)) % 6 = 0 then 0
          else 1 + (hashtext(p.slug || c.k) & 15) end,
        case when c.colour = '' then '{}'::text[] else array[p.image_urls[1 + (c.k - 1) % 2]] end
      from products p
      cross join unnest(${textArray(sizes)}) with ordinality as s(size, k)
      cross join unnest(${textArray(
        colourCount > 1 ? colours.map(({ name }) => name) : [''],
      )}) with ordinality as c(colour, k)
      where p.category_id in ${generated}`);
    // Writing from_price_cents makes the products_from_price trigger work it out from the rows.
    await tx.execute(sql`
      update products p
      set stock_quantity = t.total, options = ${JSON.stringify(options)}::jsonb,
        from_price_cents = 0
      from (select product_id, sum(stock_quantity)::int as total from product_variants
            group by product_id) as t
      where t.product_id = p.id and p.category_id in ${generated}`);
    // The deleted variants' deferred check first: a table with pending trigger events cannot
    // be altered.
    await tx.execute(sql`set constraints all immediate`);
    await tx.execute(sql`alter table product_variants enable trigger product_variants_stock`);
    await tx.execute(sql`alter table product_variants enable trigger product_variants_from_price`);
    await tx.execute(sql`alter table products enable trigger products_stock_to_variant`);
  });
}

async function rows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

async function one<T>(db: Db, query: ReturnType<typeof sql>): Promise<T> {
  const [row] = await rows<T>(db, query);
  if (!row) throw new Error('The generated catalogue is missing a row it should have');
  return row;
}
