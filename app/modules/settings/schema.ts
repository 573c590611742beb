import { sql } from 'drizzle-orm';
import { check, jsonb, pgTable, smallint, text } from 'drizzle-orm/pg-core';

import { createdAt, updatedAt } from '../../db/columns';

import type { StoreMode } from './mode';

/** The single store-settings record; `values` holds the fields of StoreSettings that were set. */
export const storeSettings = pgTable(
  'store_settings',
  {
    id: smallint('id').primaryKey().default(1),
    values: jsonb('values').$type<Record<string, unknown>>().notNull().default({}),
    // Kept beside the values, not among them: no settings form can set it (ADR 018). A record
    // created without saying is live, so a database upgraded from before the modes stays live.
    mode: text('mode').$type<StoreMode>().notNull().default('live'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('store_settings_single_row_check', sql`${t.id} = 1`),
    check('store_settings_mode_check', sql`${t.mode} in ('demo', 'live')`),
  ],
);
