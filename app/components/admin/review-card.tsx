import { Form, Link } from 'react-router';

import {
  ratingText,
  REVIEW_SOURCE_BADGES,
  REVIEW_STATUS_LABELS,
  reviewerName,
  type ReviewSource,
  type ReviewStatus,
} from '~/modules/reviews';

import { ConfirmDialog } from './confirm-dialog';
import { useStorefrontUrl } from './storefront-url';

export interface ReviewCardData {
  id: string;
  customerName: string;
  rating: number;
  comment: string | null;
  source: ReviewSource;
  status: ReviewStatus;
  /** ISO date, for the <time> element. */
  createdAt: string;
  /** pt-BR, written on the server in the store's time zone. */
  date: string;
  product: { id: string; name: string };
}

const STATUS_LOOK: Record<ReviewStatus, string> = {
  pending: 'border-amber-300 bg-amber-50 text-amber-900',
  visible: 'border-emerald-300 bg-emerald-50 text-emerald-900',
  hidden: 'border-slate-300 bg-slate-100 text-slate-700',
};

/**
 * One review in the admin: who (and whether a buyer, staff or the sample store wrote it), its
 * state, which product, the stars, when, what they said; approve, hide or delete.
 */
export function ReviewCard({ review }: { review: ReviewCardData }) {
  const name = reviewerName(review.customerName);
  const storefrontUrl = useStorefrontUrl();
  return (
    <article className="admin-card flex w-full flex-col gap-2" aria-label={`Avaliação de ${name}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h2 className="font-semibold break-words">{name}</h2>
        <p className="flex flex-wrap gap-2 text-xs font-medium">
          <span className="rounded-full border border-slate-300 px-2 py-0.5 text-slate-700">
            {REVIEW_SOURCE_BADGES[review.source]}
          </span>
          <span
            className={`rounded-full border px-2 py-0.5 ${STATUS_LOOK[review.status]}`}
            data-testid="review-status"
          >
            {REVIEW_STATUS_LABELS[review.status]}
          </span>
        </p>
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
      <div className="mt-auto flex flex-wrap justify-end gap-2 pt-2">
        {review.status === 'visible' ? null : (
          <Form method="post">
            <input type="hidden" name="intent" value="approve" />
            <input type="hidden" name="id" value={review.id} />
            <button
              type="submit"
              className="admin-button-primary"
              aria-label={`Aprovar avaliação de ${name}`}
            >
              Aprovar
            </button>
          </Form>
        )}
        {review.status === 'hidden' ? null : (
          <Form method="post">
            <input type="hidden" name="intent" value="hide" />
            <input type="hidden" name="id" value={review.id} />
            <button
              type="submit"
              className="admin-button-secondary"
              aria-label={`Ocultar avaliação de ${name}`}
            >
              Ocultar
            </button>
          </Form>
        )}
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
