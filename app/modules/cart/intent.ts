import { z } from 'zod';

import { MAX_LINE_QUANTITY } from './types';

const id = (error: string) =>
  z.preprocess(
    // A form without the field, or with it empty, names nothing.
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z
      .string({ error })
      .trim()
      .pipe(z.guid({ error }))
      // PostgreSQL answers ids in lower case; the cart compares them as text.
      .transform((value) => value.toLowerCase())
      .optional(),
  );

/**
 * The line a form names: a variant (`variantId`), or a product sold as one variant (`productId`
 * alone; a form from before variants names its product's first variant).
 */
const target = {
  productId: id('Produto inválido.'),
  variantId: id('Variante inválida.'),
};
const namesALine = [
  (fields: { productId?: string; variantId?: string }) =>
    fields.productId !== undefined || fields.variantId !== undefined,
  { error: 'Informe o produto.' },
] as const;

const quantity = (min: number) => {
  const message = `Informe uma quantidade de ${min} a ${MAX_LINE_QUANTITY}.`;
  return z
    .string({ error: message })
    .trim()
    .regex(/^\d{1,4}$/, { error: message })
    .transform(Number)
    .pipe(z.number().min(min, { error: message }));
};

/** Forms may leave the quantity out (a card's "add" button): one unit. */
const quantityOrOne = z.preprocess(
  (value) => (value === undefined || value === '' ? '1' : value),
  quantity(1),
);

/** What a POST to /cart may ask for, read from its form fields. */
export const cartIntentSchema = z.discriminatedUnion(
  'intent',
  [
    z
      .object({ intent: z.literal(['add', 'buy']), ...target, quantity: quantityOrOne })
      .refine(...namesALine),
    z.object({ intent: z.literal('set'), ...target, quantity: quantity(0) }).refine(...namesALine),
    z.object({ intent: z.literal('remove'), ...target }).refine(...namesALine),
    z.object({ intent: z.literal('clear') }),
  ],
  { error: 'Ação inválida no carrinho.' },
);

export type CartIntent = z.output<typeof cartIntentSchema>;
