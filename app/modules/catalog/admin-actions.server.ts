import { z } from 'zod';

import { PRODUCT_CSV_LIMITS, PRODUCT_CSV_MESSAGES } from './product-csv';

/**
 * What the product list posts: a product to delete, or a CSV file to import. In a server file,
 * like the orders' action schemas: a schema built at a module's top level stays in every bundle
 * that imports its file, and only the action reads this one.
 */
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
