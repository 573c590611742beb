import { customType, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';

import { createdAt } from '../../db/columns';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
});

/**
 * Images uploaded in the admin. They live in the database so that every app instance behind a
 * load balancer serves the same files, without a shared disk.
 */
export const media = pgTable('media', {
  id: uuid('id').primaryKey().defaultRandom(),
  originalName: text('original_name'),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  createdAt: createdAt(),
});

/** The WebP files of one upload, one per width (never wider than the original). */
export const mediaVariants = pgTable(
  'media_variants',
  {
    mediaId: uuid('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    width: integer('width').notNull(),
    contentType: text('content_type').notNull().default('image/webp'),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [primaryKey({ columns: [t.mediaId, t.width] })],
);
