import type { ReviewSource } from './schema';

/** Only products with at least one review have one: ratings are never invented. */
export interface RatingSummary {
  /** Mean of the ratings, rounded to one decimal. */
  average: number;
  count: number;
}

export interface Review {
  id: string;
  /** As stored; a blank name is shown as "Cliente" (see `reviewerName`). */
  customerName: string;
  rating: number;
  comment: string | null;
  /** Shown as a badge: 'Compra verificada', 'Avaliação da loja' or 'Exemplo'. */
  source: ReviewSource;
  createdAt: Date;
}
