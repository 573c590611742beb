import { Link } from 'react-router';

import { ratingText, reviewerName } from '~/modules/reviews';

import { ConfirmDialog } from './confirm-dialog';
import { useStorefrontUrl } from './storefront-url';

export interface ReviewCardData {
  id: string;
  customerName: string;
  rating: number;
  comment: string | null;
  /** ISO date, for the <time> element. */
  createdAt: string;
  /** pt-BR, written on the server in the store's time zone. */
  date: string;
  product: { id: string; name: string };
}

/** One review in the admin: who, which product, the stars, when, what they said; delete. */
export function ReviewCard({ review }: { review: ReviewCardData }) {
  const name = reviewerName(review.customerName);
  const storefrontUrl = useStorefrontUrl();
  return (
    <article className="admin-card flex w-full flex-col gap-2" aria-label={`Avaliação de ${name}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h2 className="font-semibold break-words">{name}</h2>
        <time dateTime={review.createdAt} className="text-sm text-slate-600">
          {review.date}
        </time>
      </div>
      <p className="text-sm break-words text-slate-700">
        Produto:{' '}
        <Link
          to={storefrontUrl(`/product/${review.product.id}`)}
          className="font-medium text-blue-700 underline hover:text-blue-900"
        >
          {review.product.name}
        </Link>
      </p>
      <p className="leading-none tracking-wider">
        <span aria-hidden="true">
          <span className="text-amber-600">{'★'.repeat(review.rating)}</span>
          <span className="text-slate-300">{'★'.repeat(5 - review.rating)}</span>
        </span>
        <span className="sr-only">{ratingText(review.rating)}</span>
      </p>
      {review.comment ? (
        <blockquote className="border-l-4 border-slate-200 pl-3 text-sm break-words whitespace-pre-line text-slate-800 italic">
          “{review.comment}”
        </blockquote>
      ) : null}
      <div className="mt-auto flex justify-end pt-2">
        <ConfirmDialog
          title="Excluir avaliação"
          message="Tem certeza que deseja excluir esta avaliação?"
          confirmLabel="Excluir"
          busyLabel="Excluindo..."
          triggerLabel={`Excluir avaliação de ${name}`}
          fields={{ intent: 'delete', id: review.id }}
        >
          Excluir
        </ConfirmDialog>
      </div>
    </article>
  );
}
