import { randomUUID } from 'node:crypto';

import { ReviewCard } from '~/components/admin/review-card';
import { ReviewFormDialog } from '~/components/admin/review-form-dialog';
import { ToastFallback } from '~/components/admin/toaster';
import { Pagination } from '~/components/ui/pagination';
import { parseForm, refuseOtherMethods } from '~/lib/form.server';
import { parsePage, withPage } from '~/lib/pagination';
import { redirectWithToast, refuseForm, successWithToast, toast } from '~/lib/toast.server';
import { requireAdmin } from '~/modules/auth/index.server';
import { listProductOptions } from '~/modules/catalog/index.admin.server';
import { formatReviewDate, REVIEW_MESSAGES } from '~/modules/reviews';
import {
  addReview,
  deleteReview,
  listAdminReviews,
  reviewActionSchema,
  setReviewStatus,
} from '~/modules/reviews/index.admin.server';

import type { Route } from './+types/reviews';

const PER_PAGE = 20;

/** A page past the last gives the last. */
function pageParam(request: Request): number {
  return parsePage(new URL(request.url).searchParams);
}

function listPath(page: number): string {
  const search = withPage(new URLSearchParams(), page).toString();
  return search ? `/admin/reviews?${search}` : '/admin/reviews';
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const [settings, page, products] = await Promise.all([
    context.settings.get(),
    listAdminReviews(context.db, { page: pageParam(request), perPage: PER_PAGE }),
    listProductOptions(context.db),
  ]);
  return {
    reviews: page.reviews.map((review) => ({
      ...review,
      createdAt: review.createdAt.toISOString(),
      // Written on the server in the store's time zone, so the browser renders the same text.
      date: formatReviewDate(review.createdAt, settings.timezone),
    })),
    total: page.total,
    pending: page.pending,
    page: page.page,
    pageCount: page.pageCount,
    products,
    reviewsShown: settings.enable_reviews,
    // The add form's key: sent twice, it still adds one review (see addReview).
    newReviewId: randomUUID(),
  };
}

function failureText(intent: unknown, error: string): string {
  switch (intent) {
    case 'delete':
      return `Erro ao excluir avaliação: ${error}`;
    case 'approve':
      return `Erro ao aprovar avaliação: ${error}`;
    case 'hide':
      return `Erro ao ocultar avaliação: ${error}`;
    default:
      return `Erro ao salvar avaliação: ${error}`;
  }
}

const DONE: Record<'delete' | 'approve' | 'hide', string> = {
  delete: 'Avaliação excluída com sucesso!',
  approve: 'Avaliação aprovada: ela já aparece na loja.',
  hide: 'Avaliação ocultada: ela não aparece mais na loja.',
};

export async function action({ request, context }: Route.ActionArgs) {
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  await requireAdmin(context, request);
  const parsed = await parseForm(request, reviewActionSchema);
  if (!parsed.ok) {
    return refuseForm(
      failureText(parsed.values.intent, parsed.error),
      { fieldErrors: parsed.fieldErrors, values: parsed.values },
      400,
    );
  }
  const form = parsed.data;
  const result =
    form.intent === 'create'
      ? await addReview(context.db, form)
      : form.intent === 'delete'
        ? await deleteReview(context.db, form.id)
        : await setReviewStatus(
            context.db,
            form.id,
            form.intent === 'approve' ? 'visible' : 'hidden',
          );
  if (!result.ok) {
    return refuseForm(
      failureText(form.intent, result.error),
      {
        fieldErrors:
          form.intent === 'create' && result.error === REVIEW_MESSAGES.productGone
            ? { productId: result.error }
            : {},
        values: {},
      },
      result.status,
    );
  }
  if (form.intent === 'create') {
    return successWithToast(request, 'Avaliação adicionada com sucesso!');
  }
  // The card that sent this is gone or moved after the reload (pending reviews come first): the
  // toast rides the redirect back to the same page (and shows without JavaScript too).
  const page = pageParam(request);
  return redirectWithToast(listPath(page), toast('success', DONE[form.intent]));
}

export function meta() {
  return [{ title: 'Avaliações · Painel' }];
}

export default function AdminReviews({ loaderData, actionData }: Route.ComponentProps) {
  const { reviews, total, pending, page, pageCount, products, reviewsShown, newReviewId } =
    loaderData;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold">Avaliações</h1>
          <p className="mt-1 text-sm text-slate-600">
            {total === 1 ? '1 avaliação' : `${total} avaliações`}. Cada avaliação publicada aparece
            na página do produto e na sua nota média; as dos compradores esperam a sua aprovação.
          </p>
          {pending > 0 ? (
            <p className="mt-1 text-sm font-semibold text-amber-900" data-testid="pending-reviews">
              {pending === 1
                ? '1 avaliação aguardando aprovação'
                : `${pending} avaliações aguardando aprovação`}
            </p>
          ) : null}
        </div>
        <ReviewFormDialog id={newReviewId} products={products} />
      </div>
      {reviewsShown ? null : (
        <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          As avaliações estão desativadas na loja: os clientes não as veem até que sejam ativadas em
          Configurações.
        </p>
      )}
      <ToastFallback toast={actionData && 'toast' in actionData ? actionData.toast : undefined} />
      {reviews.length === 0 ? (
        <p className="admin-card text-slate-700">Nenhuma avaliação encontrada</p>
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2">
          {reviews.map((review) => (
            <li key={review.id} className="flex">
              <ReviewCard review={review} />
            </li>
          ))}
        </ul>
      )}
      <Pagination
        look="admin"
        label="Páginas de avaliações"
        page={page}
        pageCount={pageCount}
        href={listPath}
      />
    </div>
  );
}
