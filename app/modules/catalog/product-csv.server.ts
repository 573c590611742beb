import { randomUUID } from 'node:crypto';

import { CsvError, parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { asc, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';

import type { Db } from '~/db/database.server';
import { csvAmount } from '~/lib/csv';
import { singleLine } from '~/lib/form';
import { isUuid } from '~/lib/uuid';

import { lockCategories } from './admin-categories.server';
import { CATEGORY_MESSAGES, CATEGORY_NAME_MAX } from './category-form';
import {
  IMAGE_SEPARATOR,
  PRODUCT_CSV_COLUMNS,
  PRODUCT_CSV_LIMITS,
  PRODUCT_CSV_MESSAGES,
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
  productStockField,
} from './product-form';
import { categories, products } from './schema';
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

/** Every product, by name, as the spreadsheet described in product-csv.ts. */
export async function exportProductsCsv(db: Db): Promise<string> {
  const rows = await selectProducts(db).orderBy(
    asc(sql`vitrine_fold(${products.name})`),
    asc(products.id),
  );
  return stringify(
    [
      PRODUCT_CSV_COLUMNS.map((column) => column.header),
      ...rows.map((product) => [
        product.id,
        product.name,
        product.description,
        csvAmount(product.priceCents),
        String(product.stockQuantity),
        product.category?.name ?? '',
        product.imageUrls.join(IMAGE_SEPARATOR),
      ]),
    ],
    { delimiter: ';', bom: true, record_delimiter: 'windows', escape_formulas: true },
  );
}

const rowSchema = z.object({
  name: productNameField,
  description: productDescriptionField,
  price: productPriceField,
  stockQuantity: productStockField,
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

type Row = z.output<typeof rowSchema> & { id: string | null; line: number };

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

/** Checks every row; the rows when all are good, else every problem found. */
function checkRows(records: string[][]): { rows: Row[] } | ProductImportResult {
  const [header = [], ...body] = records;
  const columnOf = new Map<ProductCsvKey, number>();
  header.forEach((name, index) => {
    const column = PRODUCT_CSV_COLUMNS.find((candidate) => candidate.header === fold(name));
    if (column && !columnOf.has(column.key)) columnOf.set(column.key, index);
  });
  const missing = PRODUCT_CSV_COLUMNS.filter(
    (column) => column.key !== 'id' && !columnOf.has(column.key),
  );
  if (missing.length > 0) {
    return refuse(PRODUCT_CSV_MESSAGES.missingColumns(missing.map((column) => column.header)));
  }
  if (body.length > PRODUCT_CSV_LIMITS.rows) return refuse(PRODUCT_CSV_MESSAGES.tooManyRows);

  const problems: ProductCsvProblem[] = [];
  const rows: Row[] = [];
  const idRows = new Map<string, number>();
  body.forEach((record, index) => {
    // Row 1 is the header; blank rows (often left at the end by Excel) are skipped.
    const line = index + 2;
    if (record.every((cell) => cell === '')) return;
    const cell = (key: ProductCsvKey) => {
      const at = columnOf.get(key);
      return at === undefined ? '' : fromText(record[at] ?? '');
    };
    const label = (key: ProductCsvKey) =>
      PRODUCT_CSV_COLUMNS.find((column) => column.key === key)!.label;

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
    const parsed = rowSchema.safeParse({
      name: cell('name'),
      description: cell('description'),
      price: cell('price'),
      stockQuantity: cell('stockQuantity'),
      category: cell('category'),
      imageUrls: cell('imageUrls'),
    });
    if (!parsed.success) {
      const seen = new Set<string>();
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0]) as ProductCsvKey;
        if (seen.has(key)) continue;
        seen.add(key);
        problems.push({ row: line, column: label(key), message: issue.message });
      }
      return;
    }
    rows.push({ ...parsed.data, id, line });
  });
  if (problems.length > 0) return refuse(PRODUCT_CSV_MESSAGES.refused, problems);
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

  return db.transaction(async (tx) => {
    // Names are unique ignoring case and accents only under the categories' lock, which also
    // keeps a category from being deleted between being found here and products joining it.
    await lockCategories(tx);
    const { ids: categoryIds, created: categoriesCreated } = await resolveCategories(tx, rows);
    const givenIds = rows.flatMap((row) => (row.id ? [row.id] : []));
    const known = new Set<string>();
    for (let start = 0; start < givenIds.length; start += UPSERT_CHUNK) {
      const found = await tx
        .select({ id: products.id })
        .from(products)
        .where(inArray(products.id, givenIds.slice(start, start + UPSERT_CHUNK)));
      for (const { id } of found) known.add(id);
    }
    const values = rows.map((row) => ({
      id: row.id ?? randomUUID(),
      name: row.name,
      description: row.description,
      priceCents: row.price,
      stockQuantity: row.stockQuantity,
      categoryId: categoryIds.get(fold(row.category))!,
      imageUrls: row.imageUrls,
    }));
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
            stockQuantity: sql.raw('excluded.stock_quantity'),
            categoryId: sql.raw('excluded.category_id'),
            imageUrls: sql.raw('excluded.image_urls'),
            updatedAt: sql`now()`,
          },
        });
    }
    await options.onStockWritten?.(tx, [...known]);
    const updated = rows.filter((row) => row.id && known.has(row.id)).length;
    return { ok: true, created: rows.length - updated, updated, categoriesCreated };
  });
}
