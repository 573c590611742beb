import { REVIEW_SOURCE_BADGES, reviewerName, type ReviewSource } from '~/modules/reviews';

export interface ReviewItem {
  id: string;
  customerName: string;
  rating: number;
  comment: string | null;
  source: ReviewSource;
  /** ISO date, for the <time> element. */
  dateTime: string;
  /** Written on the server in the store's time zone, so the browser renders the same text. */
  date: string;
}

export function ReviewList({ reviews }: { reviews: ReviewItem[] }) {
  if (reviews.length === 0) {
    return <p className="text-product-description">Este produto ainda não tem avaliações.</p>;
  }
  return (
    <ul className="flex flex-col gap-4">
      {reviews.map((review) => (
        <li
          key={review.id}
          className="flex flex-col gap-2 rounded-card border border-card-border bg-card p-4"
          data-testid="review"
        >
          <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
            <p className="flex flex-wrap items-center gap-2">
              <span className="font-semibold">{reviewerName(review.customerName)}</span>
              <span
                className="rounded-full border border-card-border px-2 py-0.5 text-xs font-medium text-product-description"
                data-testid="review-source"
              >
                {review.source === 'buyer' ? <span aria-hidden="true">✓ </span> : null}
                {REVIEW_SOURCE_BADGES[review.source]}
              </span>
            </p>
            <time dateTime={review.dateTime} className="text-sm text-product-description">
              {review.date}
            </time>
          </div>
          <p className="leading-none tracking-wider">
            <span aria-hidden="true">
              <span className="text-amber-500">{'★'.repeat(review.rating)}</span>
              <span className="text-gray-300">{'★'.repeat(5 - review.rating)}</span>
            </span>
            <span className="sr-only">Nota {review.rating} de 5</span>
          </p>
          {review.comment ? <p className="whitespace-pre-line">{review.comment}</p> : null}
        </li>
      ))}
    </ul>
  );
}
