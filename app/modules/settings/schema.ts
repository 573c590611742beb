import { sql } from 'drizzle-orm';
import { check, jsonb, pgTable, smallint } from 'drizzle-orm/pg-core';

import { createdAt, updatedAt } from '../../db/columns';

/** The single store-settings record; `values` holds the fields of StoreSettings that were set. */
export const storeSettings = pgTable(
  'store_settings',
  {
    id: smallint('id').primaryKey().default(1),
    values: jsonb('values').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check('store_settings_single_row_check', sql`${t.id} = 1`)],
);
