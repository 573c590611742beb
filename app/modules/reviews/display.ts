import { formatDate } from '~/lib/date-format';

import type { ReviewSource, ReviewStatus } from './schema';

/** The name shown for a review; reviews left without one read "Cliente". */
export function reviewerName(customerName: string): string {
  return customerName.trim() || 'Cliente';
}

/** When a review was written, on the store's calendar: "3 de março de 2026". */
export function formatReviewDate(date: Date, timeZone: string): string {
  return formatDate(date, timeZone, 'long');
}

/**
 * The badge beside each review in the store, so a shopper knows who wrote it: a buyer of the
 * product, the store itself (a customer's words passed on by staff), or the sample store.
 */
export const REVIEW_SOURCE_BADGES: Record<ReviewSource, string> = {
  buyer: 'Compra verificada',
  staff: 'Avaliação da loja',
  sample: 'Exemplo',
};

/** What staff read about a review's state in the list. */
export const REVIEW_STATUS_LABELS: Record<ReviewStatus, string> = {
  pending: 'Aguardando aprovação',
  visible: 'Publicada',
  hidden: 'Oculta',
};

/** 5 down to 1, as the form offers them: '5 estrelas' … '1 estrela'. */
export const RATING_CHOICES = [5, 4, 3, 2, 1].map((value) => ({
  value,
  label: value === 1 ? '1 estrela' : `${value} estrelas`,
}));

/** '4 de 5 estrelas', what a screen reader says for a review's stars. */
export function ratingText(rating: number): string {
  return `${rating} de 5 ${rating === 1 ? 'estrela' : 'estrelas'}`;
}
