import { randomUUID } from 'node:crypto';

import { CsvError, parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { and, asc, inArray, or, sql } from 'drizzle-orm';
import { z } from 'zod';

import type { Db } from '~/db/database.server';
import { csvAmount } from '~/lib/csv';
import { singleLine } from '~/lib/form';
import { isUuid } from '~/lib/uuid';

import { lockCategories } from './admin-categories.server';
import {
  checkOptions,
  combinationKey,
  parseOptionalPrice,
  parseSku,
  parseWhole,
  VARIANT_LIMITS,
  VARIANT_MESSAGES,
  type VariantValues,
} from './admin-variants';
import { writeVariants } from './admin-variants.server';
import { CATEGORY_MESSAGES, CATEGORY_NAME_MAX } from './category-form';
import {
  IMAGE_SEPARATOR,
  PRODUCT_CSV_COLUMNS,
  PRODUCT_CSV_LIMITS,
  PRODUCT_CSV_MESSAGES,
  PRODUCT_CSV_REQUIRED,
  type ProductCsvKey,
  type ProductCsvProblem,
  type ProductImportResult,
} from './product-csv';
import {
  imageUrlsField,
  PRODUCT_LIMITS,
  PRODUCT_MESSAGES,
  productDescriptionField,
  productNameField,
  productPriceField,
  parseStockText,
} from './product-form';
import {
  IDENTIFIER_MAX_LENGTH,
  IDENTIFIER_MESSAGES,
  parseCondition,
  parseGtin,
  parseIdentifierText,
  type ProductCondition,
} from './product-identifiers';
import { categories, products, productVariants, type ProductOption } from './schema';
import { selectProducts } from './select.server';

/** Like vitrine_fold() in the database: case and accents ignored ("Áudio" = "audio"). */
function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

// escape_formulas puts an apostrophe before a cell that Excel would run as a formula (CSV
// injection); the import drops it again.
const fromText = (value: string) =>
  /^'[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.test(value) ? value.slice(1) : value;

/** Every product, by name, and its variants in their order, as described in product-csv.ts. */
export async function exportProductsCsv(db: Db): Promise<string> {
  const rows = await selectProducts(db).orderBy(
    asc(sql`vitrine_fold(${products.name})`),
    asc(products.id),
  );
  const variantsOf = new Map<string, (typeof productVariants.$inferSelect)[]>();
  for (const variant of await db
    .select()
    .from(productVariants)
    .orderBy(asc(productVariants.position), asc(productVariants.id))) {
    const list = variantsOf.get(variant.productId) ?? [];
    list.push(variant);
    variantsOf.set(variant.productId, list);
  }
  const amount = (cents: number | null) => (cents === null ? '' : csvAmount(cents));
  const whole = (value: number | null) => (value === null ? '' : String(value));
  const lines = rows.flatMap((product) =>
    (variantsOf.get(product.id) ?? []).map((variant, index) => {
      const first = index === 0;
      const values = [variant.option1, variant.option2, variant.option3];
      return [
        product.id,
        first ? product.name : '',
        first ? product.description : '',
        first ? csvAmount(product.priceCents) : '',
        String(variant.stockQuantity),
        first ? (product.category?.name ?? '') : '',
        first ? product.imageUrls.join(IMAGE_SEPARATOR) : '',
        product.slug,
        ...[0, 1, 2].flatMap((at) => {
          const option = product.options[at];
          const value = option?.values.find((candidate) => candidate.name === values[at]);
          return [option?.name ?? '', values[at] ?? '', value?.color ?? ''];
        }),
        variant.sku,
        amount(variant.priceCents),
        amount(variant.compareAtPriceCents),
        whole(variant.weightGrams),
        whole(variant.lengthMm),
        whole(variant.widthMm),
        whole(variant.heightMm),
        variant.imageUrls.join(IMAGE_SEPARATOR),
        first ? product.brand : '',
        first ? product.googleProductCategory : '',
        first ? product.condition : '',
        variant.gtin,
        variant.mpn,
      ];
    }),
  );
  return stringify([PRODUCT_CSV_COLUMNS.map((column) => column.header), ...lines], {
    delimiter: ';',
    bom: true,
    record_delimiter: 'windows',
    escape_formulas: true,
  });
}

const rowSchema = z.object({
  name: productNameField,
  description: productDescriptionField,
  price: productPriceField,
  category: z
    .string()
    .transform(singleLine)
    .pipe(
      z
        .string()
        .min(1, PRODUCT_CSV_MESSAGES.category)
        .max(CATEGORY_NAME_MAX, CATEGORY_MESSAGES.nameTooLong),
    ),
  imageUrls: imageUrlsField(/\|/)
    .refine((urls) => urls.length > 0, PRODUCT_MESSAGES.images)
    .refine((urls) => urls.length <= PRODUCT_LIMITS.images, PRODUCT_MESSAGES.tooManyImages),
});

/** A product of the spreadsheet: its first row's columns and a variant per row. */
type Row = z.output<typeof rowSchema> & {
  id: string | null;
  slug: string;
  line: number;
  options: ProductOption[];
  variants: (VariantValues & { line: number })[];
  /** A spreadsheet from before variants: the product's one variant's stock only. */
  stockOnly: boolean;
  /** Undefined: the spreadsheet has no such column, and the product keeps its own. */
  brand?: string;
  googleProductCategory?: string;
  condition?: ProductCondition;
};

/** Text from Excel: UTF-8 (with or without BOM), else the Windows-1252 of its plain "CSV". */
function decode(bytes: Uint8Array): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    text = new TextDecoder('windows-1252').decode(bytes);
  }
  // PostgreSQL refuses NUL in text; no spreadsheet means one.
  return text.replace(/\0/g, '');
}

function readRecords(text: string): string[][] | { error: string } {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  try {
    return parse(text, {
      delimiter: firstLine.includes(';') ? ';' : ',',
      bom: true,
      relax_column_count: true,
      trim: true,
      max_record_size: 100_000,
      // The header, the rows allowed, and one more to tell that there are too many.
      to: PRODUCT_CSV_LIMITS.rows + 2,
    }) as string[][];
  } catch (error) {
    if (error instanceof CsvError) {
      const line = typeof error.lines === 'number' ? error.lines : undefined;
      return { error: PRODUCT_CSV_MESSAGES.unreadable(line) };
    }
    throw error;
  }
}

function refuse(error: string, problems: ProductCsvProblem[] = []): ProductImportResult {
  return {
    ok: false,
    error,
    problems: problems.slice(0, PRODUCT_CSV_LIMITS.reported),
    moreProblems: Math.max(0, problems.length - PRODUCT_CSV_LIMITS.reported),
  };
}

const OPTION_KEYS = [
  { name: 'option1', value: 'value1', color: 'color1' },
  { name: 'option2', value: 'value2', color: 'color2' },
  { name: 'option3', value: 'value3', color: 'color3' },
] as const;

const label = (key: ProductCsvKey) =>
  PRODUCT_CSV_COLUMNS.find((column) => column.key === key)!.label;

/**
 * Checks every row; the products when all are good, else every problem found. Rows are one
 * product each, or, with the variant columns, grouped by slug (else id) into one product.
 */
function checkRows(records: string[][]): { rows: Row[] } | ProductImportResult {
  const [header = [], ...body] = records;
  const columnOf = new Map<ProductCsvKey, number>();
  header.forEach((name, index) => {
    const column = PRODUCT_CSV_COLUMNS.find((candidate) => candidate.header === fold(name));
    if (column && !columnOf.has(column.key)) columnOf.set(column.key, index);
  });
  const missing = PRODUCT_CSV_REQUIRED.filter((key) => !columnOf.has(key));
  if (missing.length > 0) {
    return refuse(
      PRODUCT_CSV_MESSAGES.missingColumns(
        missing.map((key) => PRODUCT_CSV_COLUMNS.find((column) => column.key === key)!.header),
      ),
    );
  }
  if (body.length > PRODUCT_CSV_LIMITS.rows) return refuse(PRODUCT_CSV_MESSAGES.tooManyRows);
  const grouped = columnOf.has('slug') || columnOf.has('option1');

  const problems: ProductCsvProblem[] = [];
  const groups = new Map<string, { line: number; cell: (key: ProductCsvKey) => string }[]>();
  body.forEach((record, index) => {
    // Row 1 is the header; blank rows (often left at the end by Excel) are skipped.
    const line = index + 2;
    if (record.every((cell) => cell === '')) return;
    const cell = (key: ProductCsvKey) => {
      const at = columnOf.get(key);
      return at === undefined ? '' : fromText(record[at] ?? '');
    };
    const id = cell('id').toLowerCase();
    const slug = cell('slug').toLowerCase();
    const key = !grouped
      ? `line:${line}`
      : slug
        ? `slug:${slug}`
        : id
          ? `id:${id}`
          : `line:${line}`;
    const group = groups.get(key) ?? [];
    group.push({ line, cell });
    groups.set(key, group);
  });

  const rows: Row[] = [];
  const idRows = new Map<string, number>();
  const skuRows = new Map<string, number>();
  for (const group of groups.values()) {
    const { line, cell } = group[0]!;
    let id: string | null = null;
    const idText = cell('id');
    if (idText) {
      if (!isUuid(idText)) {
        problems.push({ row: line, column: label('id'), message: PRODUCT_CSV_MESSAGES.idInvalid });
      } else {
        id = idText.toLowerCase();
        const first = idRows.get(id);
        if (first !== undefined) {
          problems.push({
            row: line,
            column: label('id'),
            message: PRODUCT_CSV_MESSAGES.idRepeated(first),
          });
        } else idRows.set(id, line);
      }
    }
    const before = problems.length;
    const parsed = rowSchema.safeParse({
      name: cell('name'),
      description: cell('description'),
      price: cell('price'),
      category: cell('category'),
      imageUrls: cell('imageUrls'),
    });
    const problem = (row: number, key: ProductCsvKey, message: string) =>
      problems.push({ row, column: label(key), message });
    const reported = new Set<string>();
    const productProblems = parsed.success
      ? []
      : parsed.error.issues.filter((issue) => {
          const key = String(issue.path[0]);
          if (reported.has(key)) return false;
          reported.add(key);
          return true;
        });

    const optionNames: string[] = [];
    for (const keys of OPTION_KEYS) {
      const name = singleLine(cell(keys.name));
      if (!name) break;
      optionNames.push(name);
    }
    const options: ProductOption[] = optionNames.map((name) => ({ name, values: [] }));
    const combos = new Map<string, number>();
    const variants: Row['variants'] = [];
    // The stock is checked where it was before variants, between the price and the category.
    const stockProblems: ProductCsvProblem[] = [];
    const variantProblems: ProductCsvProblem[] = [];
    for (const { line: row, cell: rowCell } of group) {
      const take = <T>(key: ProductCsvKey, result: { value: T } | { error: string }, or: T) => {
        if ('value' in result) return result.value;
        (key === 'stockQuantity' ? stockProblems : variantProblems).push({
          row,
          column: label(key),
          message: result.error,
        });
        return or;
      };
      const values: string[] = [];
      OPTION_KEYS.forEach((keys, at) => {
        const value = singleLine(rowCell(keys.value));
        const color = rowCell(keys.color).trim().toLowerCase();
        const option = options[at];
        if (!option) {
          if (value) take(keys.value, { error: PRODUCT_CSV_MESSAGES.noOption }, '');
          return;
        }
        if (!value) {
          take(keys.value, { error: PRODUCT_CSV_MESSAGES.optionValue(option.name) }, '');
          return;
        }
        if (color && !/^#[0-9a-f]{6}$/.test(color)) {
          take(keys.color, { error: VARIANT_MESSAGES.color }, '');
        }
        values.push(value);
        const known = option.values.find((candidate) => candidate.name === value);
        if (!known) option.values.push(color ? { name: value, color } : { name: value });
        else if (!known.color && color) known.color = color;
      });
      const combo = combinationKey(values);
      const seen = combos.get(combo);
      if (seen !== undefined) {
        take('value1', { error: PRODUCT_CSV_MESSAGES.combinationRepeated(seen) }, '');
      } else combos.set(combo, row);
      const sku = take('sku', parseSku(rowCell('sku')), '');
      if (sku) {
        const first = skuRows.get(sku);
        if (first !== undefined)
          take('sku', { error: PRODUCT_CSV_MESSAGES.skuRepeated(first) }, '');
        else skuRows.set(sku, row);
      }
      const images = imageUrlsField(/\|/).safeParse(rowCell('variantImages'));
      variants.push({
        line: row,
        values,
        sku,
        priceCents: take('variantPrice', parseOptionalPrice(rowCell('variantPrice')), null),
        compareAtPriceCents: grouped
          ? take('compareAtPrice', parseOptionalPrice(rowCell('compareAtPrice')), null)
          : undefined,
        stockQuantity: take('stockQuantity', parseStockText(rowCell('stockQuantity')), 0),
        weightGrams: take('weight', parseWhole(rowCell('weight'), VARIANT_LIMITS.grams), null),
        lengthMm: take('length', parseWhole(rowCell('length'), VARIANT_LIMITS.mm), null),
        widthMm: take('width', parseWhole(rowCell('width'), VARIANT_LIMITS.mm), null),
        heightMm: take('height', parseWhole(rowCell('height'), VARIANT_LIMITS.mm), null),
        imageUrls: images.success
          ? images.data
          : take('variantImages', { error: images.error.issues[0]!.message }, []),
        ...(grouped ? {} : { onlyStockAndPrice: true }),
        ...(columnOf.has('gtin') ? { gtin: take('gtin', parseGtin(rowCell('gtin')), '') } : {}),
        ...(columnOf.has('mpn')
          ? {
              mpn: take('mpn', parseIdentifierText(rowCell('mpn'), IDENTIFIER_MAX_LENGTH.mpn), ''),
            }
          : {}),
      });
    }
    for (const issue of checkOptions(options).issues) {
      const [, at, part] = issue.path.split('.');
      const keys = OPTION_KEYS[Number(at)] ?? OPTION_KEYS[0];
      problem(line, part === 'name' ? keys.name : keys.value, issue.message);
    }
    if (variants.length > VARIANT_LIMITS.variants) {
      problem(line, 'value1', VARIANT_MESSAGES.tooManyVariants);
    }
    // Each row's problems in the spreadsheet's column order, as staff read them.
    const productKeys = ['name', 'description', 'price', 'category', 'imageUrls'] as const;
    for (const key of productKeys.slice(0, 3)) {
      const issue = productProblems.find((candidate) => candidate.path[0] === key);
      if (issue) problem(line, key, issue.message);
    }
    const firstStock = stockProblems.filter((item) => item.row === line);
    problems.push(...firstStock);
    for (const key of productKeys.slice(3)) {
      const issue = productProblems.find((candidate) => candidate.path[0] === key);
      if (issue) problem(line, key, issue.message);
    }
    const identifiers: Pick<Row, 'brand' | 'googleProductCategory' | 'condition'> = {};
    if (columnOf.has('brand')) {
      const brand = parseIdentifierText(cell('brand'), IDENTIFIER_MAX_LENGTH.brand);
      if ('error' in brand) problem(line, 'brand', brand.error);
      else identifiers.brand = brand.value;
    }
    if (columnOf.has('googleProductCategory')) {
      const category = parseIdentifierText(
        cell('googleProductCategory'),
        IDENTIFIER_MAX_LENGTH.googleProductCategory,
      );
      if ('error' in category) problem(line, 'googleProductCategory', category.error);
      else identifiers.googleProductCategory = category.value;
    }
    if (columnOf.has('condition')) {
      const condition = parseCondition(cell('condition'));
      if (condition === undefined) {
        problem(line, 'condition', IDENTIFIER_MESSAGES.condition);
      } else identifiers.condition = condition;
    }
    problems.push(...stockProblems.filter((item) => item.row !== line), ...variantProblems);
    if (problems.length > before || !parsed.success) continue;
    rows.push({
      ...parsed.data,
      ...identifiers,
      id,
      slug: cell('slug').toLowerCase(),
      line,
      options,
      variants,
      stockOnly: !grouped,
    });
  }
  if (problems.length > 0) {
    problems.sort((a, b) => a.row - b.row);
    return refuse(PRODUCT_CSV_MESSAGES.refused, problems);
  }
  if (rows.length === 0) return refuse(PRODUCT_CSV_MESSAGES.empty);
  return { rows };
}

/** Category ids by folded name; names not found are created (with the spelling of their first row). */
async function resolveCategories(db: Db, rows: Row[]) {
  const existing = await db
    .select({ id: categories.id, name: categories.name })
    .from(categories)
    .orderBy(asc(categories.createdAt), asc(categories.id));
  const ids = new Map<string, string>();
  for (const category of existing) {
    if (!ids.has(fold(category.name))) ids.set(fold(category.name), category.id);
  }
  const created: string[] = [];
  for (const row of rows) {
    const key = fold(row.category);
    if (ids.has(key)) continue;
    const [inserted] = await db
      .insert(categories)
      .values({ name: row.category })
      .returning({ id: categories.id });
    ids.set(key, inserted!.id);
    created.push(row.category);
  }
  return { ids, created };
}

const UPSERT_CHUNK = 500;

/**
 * Imports the spreadsheet: every row is checked first and, if any is wrong, nothing is written
 * and each problem is reported with its row. Otherwise one transaction creates the products
 * (rows without an id, or with an id not in the store) and updates those whose id exists.
 * Categories are matched by name ignoring case and accents; missing ones are created.
 */
export async function importProductsCsv(
  db: Db,
  bytes: Uint8Array,
  options: {
    /**
     * Runs in the import's transaction once the stock is written, with the products that existed
     * before (new ones have no restock requests): the restock alerts hook in here.
     */
    onStockWritten?: (tx: Db, productIds: string[]) => Promise<unknown>;
  } = {},
): Promise<ProductImportResult> {
  if (bytes.byteLength > PRODUCT_CSV_LIMITS.bytes) return refuse(PRODUCT_CSV_MESSAGES.tooBig);
  const records = readRecords(decode(bytes));
  if ('error' in records) return refuse(records.error);
  const checked = checkRows(records);
  if (!('rows' in checked)) return checked;
  const { rows } = checked;

  return db.transaction(async (tx): Promise<ProductImportResult> => {
    // Names are unique ignoring case and accents only under the categories' lock, which also
    // keeps a category from being deleted between being found here and products joining it.
    await lockCategories(tx);
    const repeated = await normaliseSlugs(tx, rows);
    if (repeated) return repeated;
    const { known, problems } = await findProducts(tx, rows);
    const refused = await checkAgainstStore(tx, rows, known, problems);
    if (refused) return refused;
    const { ids: categoryIds, created: categoriesCreated } = await resolveCategories(tx, rows);
    const ids = rows.map((row) => row.id ?? randomUUID());
    const values = rows.map((row, index) => ({
      id: ids[index]!,
      name: row.name,
      description: row.description,
      priceCents: row.price,
      // The variants' sum, by the database, once they are written.
      stockQuantity: 0,
      categoryId: categoryIds.get(fold(row.category))!,
      imageUrls: row.imageUrls,
      slug: row.slug,
      // A spreadsheet from before variants leaves a product's options as they are.
      ...(row.stockOnly ? {} : { options: row.options }),
      ...(row.brand === undefined ? {} : { brand: row.brand }),
      ...(row.googleProductCategory === undefined
        ? {}
        : { googleProductCategory: row.googleProductCategory }),
      ...(row.condition === undefined ? {} : { condition: row.condition }),
    }));
    // A column the spreadsheet has is written; one it lacks leaves the products' own.
    const kept = (key: 'brand' | 'googleProductCategory' | 'condition', column: string) =>
      sql.raw(rows[0]![key] === undefined ? `products.${column}` : `excluded.${column}`);
    for (let start = 0; start < values.length; start += UPSERT_CHUNK) {
      await tx
        .insert(products)
        .values(values.slice(start, start + UPSERT_CHUNK))
        .onConflictDoUpdate({
          target: products.id,
          set: {
            name: sql.raw('excluded.name'),
            description: sql.raw('excluded.description'),
            priceCents: sql.raw('excluded.price_cents'),
            categoryId: sql.raw('excluded.category_id'),
            imageUrls: sql.raw('excluded.image_urls'),
            options: sql.raw(
              rows.some((row) => row.stockOnly) ? 'products.options' : 'excluded.options',
            ),
            brand: kept('brand', 'brand'),
            googleProductCategory: kept('googleProductCategory', 'google_product_category'),
            condition: kept('condition', 'condition'),
            updatedAt: sql`now()`,
          },
        });
    }
    // SKUs may move between the spreadsheet's products: theirs step aside first (to their
    // own id, unique) and are given again with their variants.
    const skus = rows.flatMap((row) => row.variants.flatMap((v) => (v.sku ? [v.sku] : [])));
    const knownIds = [...known.values()];
    for (let start = 0; start < skus.length; start += UPSERT_CHUNK) {
      if (knownIds.length === 0) break;
      await tx
        .update(productVariants)
        .set({ sku: sql`${productVariants.id}::text` })
        .where(
          and(
            inArray(productVariants.sku, skus.slice(start, start + UPSERT_CHUNK)),
            inArray(productVariants.productId, knownIds),
          ),
        );
    }
    for (const [index, row] of rows.entries()) {
      await writeVariants(tx, ids[index]!, row.variants);
    }
    await options.onStockWritten?.(tx, knownIds);
    const updated = rows.filter((row) => row.id && known.has(row.line)).length;
    return { ok: true, created: rows.length - updated, updated, categoriesCreated };
  });
}

/**
 * Each row's slug as the database will store it (vitrine_slug(), which its trigger applies), so
 * the look-ups below and the unique index see the same text: 'Teclado mecanico RGB' is
 * 'teclado-mecanico-rgb'. Two products whose slugs are one after that are refused by row.
 */
async function normaliseSlugs(db: Db, rows: Row[]): Promise<ProductImportResult | null> {
  const named = rows.filter((row) => row.slug);
  if (named.length === 0) return null;
  // One parameter for the whole list, however long.
  const result = await db.execute(sql`
    select vitrine_slug(given.slug) as slug
    from jsonb_array_elements_text(${JSON.stringify(named.map((row) => row.slug))}::jsonb)
      with ordinality as given(slug, at)
    order by given.at`);
  const normalised = (result as unknown as { rows: { slug: string | null }[] }).rows;
  const problems: ProductCsvProblem[] = [];
  const firstLine = new Map<string, number>();
  named.forEach((row, at) => {
    row.slug = normalised[at]?.slug ?? '';
    if (!row.slug) return;
    const first = firstLine.get(row.slug);
    if (first === undefined) firstLine.set(row.slug, row.line);
    else {
      problems.push({
        row: row.line,
        column: label('slug'),
        message: PRODUCT_CSV_MESSAGES.slugRepeated(first),
      });
    }
  });
  if (problems.length === 0) return null;
  problems.sort((a, b) => a.row - b.row);
  return refuse(PRODUCT_CSV_MESSAGES.refused, problems);
}

/**
 * The products of the store the spreadsheet's rows name, by id or else by slug (the first row's
 * line → id); a row found by its slug takes its product's id. A new product cannot take a slug
 * another product has, and a product found by its slug cannot also be named by its id.
 */
async function findProducts(
  db: Db,
  rows: Row[],
): Promise<{ known: Map<number, string>; problems: ProductCsvProblem[] }> {
  const known = new Map<number, string>();
  const problems: ProductCsvProblem[] = [];
  const ids = rows.flatMap((row) => (row.id ? [row.id] : []));
  const slugs = rows.flatMap((row) => (row.slug ? [row.slug] : []));
  const foundIds = new Set<string>();
  const bySlug = new Map<string, string>();
  for (let start = 0; start < Math.max(ids.length, slugs.length); start += UPSERT_CHUNK) {
    const idChunk = ids.slice(start, start + UPSERT_CHUNK);
    const slugChunk = slugs.slice(start, start + UPSERT_CHUNK);
    const found = await db
      .select({ id: products.id, slug: products.slug })
      .from(products)
      .where(
        or(
          idChunk.length ? inArray(products.id, idChunk) : sql`false`,
          slugChunk.length ? inArray(products.slug, slugChunk) : sql`false`,
        ),
      );
    for (const product of found) {
      foundIds.add(product.id);
      bySlug.set(product.slug, product.id);
    }
  }
  const lineOf = new Map(rows.flatMap((row) => (row.id ? [[row.id, row.line] as const] : [])));
  for (const row of rows) {
    if (row.id && foundIds.has(row.id)) known.set(row.line, row.id);
    else if (row.slug && bySlug.has(row.slug)) {
      const id = bySlug.get(row.slug)!;
      const named = lineOf.get(id);
      if (row.id) {
        problems.push({
          row: row.line,
          column: label('slug'),
          message: PRODUCT_CSV_MESSAGES.slugTaken,
        });
      } else if (named !== undefined) {
        problems.push({
          row: row.line,
          column: label('slug'),
          message: PRODUCT_CSV_MESSAGES.productRepeated(named),
        });
      } else {
        row.id = id;
        known.set(row.line, id);
      }
    }
  }
  return { known, problems };
}

/**
 * What only the store can tell: a SKU of a product not in the spreadsheet, and a product with
 * variants given one stock by a spreadsheet from before variants.
 */
async function checkAgainstStore(
  db: Db,
  rows: Row[],
  known: Map<number, string>,
  problems: ProductCsvProblem[],
): Promise<ProductImportResult | null> {
  const stockOnly = rows.filter((row) => row.stockOnly && known.has(row.line));
  if (stockOnly.length > 0) {
    const withVariants = new Set<string>();
    const ids = stockOnly.map((row) => known.get(row.line)!);
    for (let start = 0; start < ids.length; start += UPSERT_CHUNK) {
      const found = await db
        .select({ id: productVariants.productId })
        .from(productVariants)
        .where(inArray(productVariants.productId, ids.slice(start, start + UPSERT_CHUNK)))
        .groupBy(productVariants.productId)
        .having(sql`count(*) > 1 or bool_or(${productVariants.option1} is not null)`);
      for (const { id } of found) withVariants.add(id);
    }
    for (const row of stockOnly) {
      if (withVariants.has(known.get(row.line)!)) {
        problems.push({
          row: row.line,
          column: label('stockQuantity'),
          message: PRODUCT_CSV_MESSAGES.hasVariants,
        });
      }
    }
  }
  const skuRows = new Map(
    rows.flatMap((row) => row.variants.flatMap((v) => (v.sku ? [[v.sku, v.line] as const] : []))),
  );
  const skus = [...skuRows.keys()];
  const ours = new Set(known.values());
  for (let start = 0; start < skus.length; start += UPSERT_CHUNK) {
    const taken = await db
      .select({ sku: productVariants.sku, productId: productVariants.productId })
      .from(productVariants)
      .where(inArray(productVariants.sku, skus.slice(start, start + UPSERT_CHUNK)));
    for (const variant of taken) {
      if (ours.has(variant.productId)) continue;
      problems.push({
        row: skuRows.get(variant.sku)!,
        column: label('sku'),
        message: PRODUCT_CSV_MESSAGES.skuTaken,
      });
    }
  }
  if (problems.length === 0) return null;
  problems.sort((a, b) => a.row - b.row);
  return refuse(PRODUCT_CSV_MESSAGES.refused, problems);
}
