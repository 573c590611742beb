import { z } from 'zod';

import { MAX_LINE_QUANTITY } from './types';

const productId = z
  .string({ error: 'Informe o produto.' })
  .trim()
  .pipe(z.guid({ error: 'Produto inválido.' }))
  // PostgreSQL answers ids in lower case; the cart compares them as text.
  .transform((id) => id.toLowerCase());

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
    z.object({ intent: z.literal(['add', 'buy']), productId, quantity: quantityOrOne }),
    z.object({ intent: z.literal('set'), productId, quantity: quantity(0) }),
    z.object({ intent: z.literal('remove'), productId }),
    z.object({ intent: z.literal('clear') }),
  ],
  { error: 'Ação inválida no carrinho.' },
);

export type CartIntent = z.output<typeof cartIntentSchema>;
