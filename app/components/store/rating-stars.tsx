import { formatOneDecimal } from '~/lib/money';
import type { RatingSummary } from '~/modules/reviews';
import { countOf } from '~/lib/plural';

function ratingLabel({ average, count }: RatingSummary): string {
  const reviews = countOf(count, 'avaliação', 'avaliações');
  return `Avaliação ${formatOneDecimal(average)} de 5 (${reviews})`;
}

/**
 * Five stars filled to the average, with the figure beside them. Without reviews it says so
 * instead of showing stars: a product never gets a rating nobody gave it.
 */
export function RatingStars({
  average,
  count,
  className = '',
}: RatingSummary & { className?: string }) {
  if (count === 0) {
    return <p className={`text-sm text-product-description ${className}`}>Sem avaliações</p>;
  }
  const filled = `${Math.min(Math.max(average / 5, 0), 1) * 100}%`;
  return (
    <p className={`flex items-center gap-1.5 text-sm text-product-description ${className}`}>
      <span aria-hidden="true" className="relative inline-block leading-none tracking-wider">
        <span className="text-gray-300">★★★★★</span>
        <span
          className="absolute inset-0 overflow-hidden whitespace-nowrap text-amber-500"
          style={{ width: filled }}
        >
          ★★★★★
        </span>
      </span>
      <span className="sr-only">{ratingLabel({ average, count })}</span>
      <span aria-hidden="true">
        {formatOneDecimal(average)} ({count})
      </span>
    </p>
  );
}
