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
  createdAt: Date;
}
