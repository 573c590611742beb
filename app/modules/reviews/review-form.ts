import { z } from 'zod';

import { FORM_MESSAGES, singleLine, textError } from '~/lib/form';

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

/** 5 down to 1, as the form offers them: '5 estrelas' … '1 estrela'. */
export const RATING_CHOICES = [5, 4, 3, 2, 1].map((value) => ({
  value,
  label: value === 1 ? '1 estrela' : `${value} estrelas`,
}));

/** '4 de 5 estrelas', what a screen reader says for a review's stars. */
export function ratingText(rating: number): string {
  return `${rating} de 5 ${rating === 1 ? 'estrela' : 'estrelas'}`;
}

// Only what the checkout's schema uses too: the browser's zod is shared with the storefront.

/** 'Adicionar avaliação': product and customer name required, rating 1–5, comment optional. */
export const reviewFormSchema = z.object({
  intent: z.enum(['create']),
  // A fresh key made with the page: the same form sent twice adds one review.
  id: z.uuid({ error: REVIEW_MESSAGES.formExpired }),
  productId: z
    .string({ error: textError(REVIEW_MESSAGES.product) })
    .min(1, { error: REVIEW_MESSAGES.product, abort: true })
    .pipe(z.uuid({ error: REVIEW_MESSAGES.productGone })),
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
  id: z.uuid({ error: REVIEW_MESSAGES.notFound }),
});

/** 'Aprovar' and 'Ocultar' in the reviews screen. */
export const reviewStatusSchema = z.object({
  intent: z.enum(['approve', 'hide']),
  id: z.uuid({ error: REVIEW_MESSAGES.notFound }),
});

/** The page a delivered order's e-mail opens to review what was bought (`?orderId=…&chave=…`). */
export const REVIEW_ORDER_PATH = '/avaliar';

export const BUYER_REVIEW_MESSAGES = {
  title: 'Avalie sua compra',
  notFound: 'Pedido não encontrado. Abra o link do e-mail de entrega do seu pedido.',
  notDelivered:
    'Você poderá avaliar os produtos assim que o pedido for entregue. Enviaremos o link por e-mail.',
  disabled: 'Esta loja não está recebendo avaliações no momento.',
  noProducts: 'Os produtos deste pedido não estão mais à venda na loja.',
  notInOrder: 'Este produto não faz parte do pedido.',
  rating: 'Escolha de 1 a 5 estrelas.',
  sent: 'Obrigado pela avaliação! Ela aparece na loja depois de revisada pela equipe.',
  already: 'Você já avaliou este produto. Obrigado!',
  busy: 'Muitas avaliações enviadas em pouco tempo. Aguarde um minuto e tente novamente.',
  invalid: 'Envie a avaliação pelo formulário da página.',
} as const;

/** One product's review on the buyer's page: 1 to 5 stars and an optional comment. */
export const buyerReviewSchema = z.object({
  productId: z.uuid({ error: BUYER_REVIEW_MESSAGES.notInOrder }),
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
