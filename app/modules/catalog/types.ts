import type { categories, products } from './schema';

type WithId<T> = Omit<T, 'id'> & { id: string };

export type CategoryRecord = WithId<typeof categories.$inferInsert>;

/** `imageUrls` is ordered; the first is the main image. */
export type ProductRecord = WithId<typeof products.$inferInsert>;

export type Product = typeof products.$inferSelect & {
  category: { id: string; name: string } | null;
};
