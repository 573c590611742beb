import { z } from 'zod';

import { FORM_MESSAGES, singleLine, textError, uuidField } from '~/lib/form';

import { BUYER_REVIEW_MESSAGES } from './buyer-review';

/** The admin's review forms, shared by the browser and the server. */
export const REVIEW_MESSAGES = {
  product: 'Selecione um produto.',
  productGone: 'O produto escolhido não existe mais. Escolha outro.',
  customerName: 'Informe o nome do cliente.',
  customerNameTooLong: 'Use no máximo 100 caracteres no nome.',
  rating: 'Escolha uma avaliação de 1 a 5 estrelas.',
  commentTooLong: 'Use no máximo 2000 caracteres no comentário.',
  formReused: 'Este formulário já foi usado. Recarregue a página e tente novamente.',
  formExpired: 'Formulário expirado. Recarregue a página e tente novamente.',
  notFound: 'Avaliação não encontrada. Ela pode ter sido excluída por outra pessoa.',
  invalid: 'Envie os dados pelo formulário de avaliações.',
} as const;

// Only what the checkout's schema uses too: the browser's zod is shared with the storefront.

/** 'Adicionar avaliação': product and customer name required, rating 1–5, comment optional. */
export const reviewFormSchema = z.object({
  intent: z.enum(['create']),
  // A fresh key made with the page: the same form sent twice adds one review.
  id: uuidField(REVIEW_MESSAGES.formExpired),
  productId: z
    .string({ error: textError(REVIEW_MESSAGES.product) })
    .min(1, { error: REVIEW_MESSAGES.product, abort: true })
    .pipe(uuidField(REVIEW_MESSAGES.productGone)),
  customerName: z
    .string({ error: textError(REVIEW_MESSAGES.customerName) })
    .overwrite(singleLine)
    .min(1, { error: REVIEW_MESSAGES.customerName, abort: true })
    .max(100, { error: REVIEW_MESSAGES.customerNameTooLong }),
  rating: z.enum(['1', '2', '3', '4', '5'], { error: REVIEW_MESSAGES.rating }).transform(Number),
  comment: z
    .string({ error: FORM_MESSAGES.invalid })
    .trim()
    .max(2000, { error: REVIEW_MESSAGES.commentTooLong })
    .optional()
    .transform((value) => value || null),
});

export const reviewDeleteSchema = z.object({
  intent: z.enum(['delete']),
  id: uuidField(REVIEW_MESSAGES.notFound),
});

/** 'Aprovar' and 'Ocultar' in the reviews screen. */
export const reviewStatusSchema = z.object({
  intent: z.enum(['approve', 'hide']),
  id: uuidField(REVIEW_MESSAGES.notFound),
});

/** One product's review on the buyer's page: 1 to 5 stars and an optional comment. */
export const buyerReviewSchema = z.object({
  productId: uuidField(BUYER_REVIEW_MESSAGES.notInOrder),
  rating: z
    .enum(['1', '2', '3', '4', '5'], { error: BUYER_REVIEW_MESSAGES.rating })
    .transform(Number),
  comment: z
    .string({ error: FORM_MESSAGES.invalid })
    .trim()
    .max(2000, { error: REVIEW_MESSAGES.commentTooLong })
    .optional()
    .transform((value) => value || null),
});
