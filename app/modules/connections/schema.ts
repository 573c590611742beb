import { sql } from 'drizzle-orm';
import { check, pgTable, text } from 'drizzle-orm/pg-core';

import { createdAt, updatedAt } from '../../db/columns';

import { SECRET_CONNECTION_FIELDS, type ConnectionField } from './connections';

/**
 * What staff typed at /admin/payments, one row per field: a plain value, or a secret sealed
 * under the secrets key (ADR 038). The check keeps a secret's row from ever holding clear text.
 */
export const storeConnections = pgTable(
  'store_connections',
  {
    name: text('name').$type<ConnectionField>().primaryKey(),
    value: text('value'),
    sealed: text('sealed'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  () => [
    check(
      'store_connections_one_form_check',
      sql.raw(
        `case when name in (${SECRET_CONNECTION_FIELDS.map((name) => `'${name}'`).join(', ')}) ` +
          `then value is null and sealed is not null else sealed is null and value is not null end`,
      ),
    ),
  ],
);
