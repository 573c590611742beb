import { z } from 'zod';

import {
  CATEGORY_MESSAGES,
  categoryDeleteSchema,
  categoryFeaturedSchema,
  categoryFormSchema,
} from './category-form';
import { PRODUCT_CSV_LIMITS, PRODUCT_CSV_MESSAGES } from './product-csv';

// The admin screens' action schemas: only the server reads them (the browser checks each form
// with its own part, such as categoryFormSchema), so they stay out of every bundle.

/** What the categories screen posts: add, edit, feature or delete one category. */
export const categoryActionSchema = z.discriminatedUnion(
  'intent',
  [categoryFormSchema, categoryFeaturedSchema, categoryDeleteSchema],
  { error: CATEGORY_MESSAGES.invalid },
);

/** What the products list posts: delete one product, or import a CSV of them. */
export const productListActionSchema = z.discriminatedUnion(
  'intent',
  [
    z.object({ intent: z.literal('delete'), id: z.string().max(100) }),
    z.object({
      intent: z.literal('import'),
      file: z
        .file({ error: PRODUCT_CSV_MESSAGES.noFile })
        .refine((file) => file.size > 0, PRODUCT_CSV_MESSAGES.noFile)
        .refine((file) => file.size <= PRODUCT_CSV_LIMITS.bytes, PRODUCT_CSV_MESSAGES.tooBig),
    }),
  ],
  { error: 'Envie os dados pelo formulário de produtos.' },
);
