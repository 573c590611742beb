import { data, Form, Link, redirect, useNavigation } from 'react-router';

import { seoContext } from '~/components/store/store-data';
import { SubmitButton } from '~/components/ui/form';
import { Thumbnail } from '~/components/ui/thumbnail';
import {
  countBuyerReview,
  findOrderToReview,
  reviewOrderProduct,
  type ReviewableProduct,
} from '~/flows/buyer-reviews.server';
import { parseForm, refuseOtherMethods } from '~/lib/form.server';
import { PRIVATE_PAGE_HANDLE, privatePageHeaders } from '~/lib/private-pages';
import { seoMeta } from '~/lib/seo';
import { refuseForm } from '~/lib/toast.server';
import { moveOrderKeyToCookie, ORDER_KEY_PARAM, orderAccess } from '~/modules/orders/index.server';
import {
  BUYER_REVIEW_MESSAGES,
  buyerReviewSchema,
  RATING_CHOICES,
  REVIEW_ORDER_PATH,
} from '~/modules/reviews';

import type { Route } from './+types/review-order';

type Page =
  | { kind: 'disabled' | 'missing' }
  | { kind: 'not-delivered'; number: string }
  | { kind: 'open'; number: string; products: ReviewableProduct[] };

/**
 * The order the link names, as this request may see it: its own token, the cookie its e-mailed
 * link left, or the key still in the address a form of an older page posts to.
 */
async function requested(request: Request) {
  const url = new URL(request.url);
  const orderId = url.searchParams.get('orderId') ?? '';
  return {
    orderId,
    access: await orderAccess(request, orderId, url.searchParams.get(ORDER_KEY_PARAM)),
  };
}

/**
 * The delivered e-mail's 'Avaliar os produtos' link: each product of the order with a rating
 * and a comment. Reading it changes nothing (mail scanners open links); each product's form
 * POSTs its own review.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const moved = await moveOrderKeyToCookie(request);
  if (moved) throw moved;
  const settings = await context.settings.get();
  if (!settings.enable_reviews) return data<Page>({ kind: 'disabled' }, 404);
  const { orderId, access } = await requested(request);
  const order = await findOrderToReview(context.db, orderId, access);
  if (order.kind === 'missing') return data<Page>({ kind: 'missing' }, 404);
  if (order.kind === 'not-delivered') {
    return data<Page>({ kind: 'not-delivered', number: order.number }, 409);
  }
  return data<Page>({ kind: 'open', number: order.number, products: order.products });
}

export async function action({ request, context }: Route.ActionArgs) {
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  const retryAfterSeconds = await countBuyerReview(context.db, context.clientIp);
  if (retryAfterSeconds !== null) {
    return refuseForm(BUYER_REVIEW_MESSAGES.busy, {}, 429, {
      'Retry-After': String(retryAfterSeconds),
    });
  }
  const settings = await context.settings.get();
  if (!settings.enable_reviews) return refuseForm(BUYER_REVIEW_MESSAGES.disabled, {}, 404);
  const parsed = await parseForm(request, buyerReviewSchema);
  if (!parsed.ok) {
    const { productId = '', comment = '' } = parsed.values;
    return refuseForm(parsed.error, {
      fieldErrors: parsed.fieldErrors,
      values: { productId, comment },
    });
  }
  const { orderId, access } = await requested(request);
  const outcome = await reviewOrderProduct(context.db, { orderId, access, ...parsed.data });
  switch (outcome) {
    case 'missing':
      return refuseForm(BUYER_REVIEW_MESSAGES.notFound, {}, 404);
    case 'not-delivered':
      return refuseForm(BUYER_REVIEW_MESSAGES.notDelivered, {}, 409);
    case 'not-in-order':
      return refuseForm(BUYER_REVIEW_MESSAGES.notInOrder, {}, 400);
    default: {
      // Back to the same link: the product now says its review was received (or already was).
      const url = new URL(request.url);
      return redirect(`${REVIEW_ORDER_PATH}${url.search}#avaliacao-${parsed.data.productId}`, 303);
    }
  }
}

export const headers = privatePageHeaders;

export const handle = PRIVATE_PAGE_HANDLE;

export function meta({ matches }: Route.MetaArgs) {
  return seoMeta(seoContext(matches), {
    title: BUYER_REVIEW_MESSAGES.title,
    path: REVIEW_ORDER_PATH,
    noindex: true,
  });
}

function ProductReview({
  product,
  refused,
  busy,
}: {
  product: ReviewableProduct;
  refused?: { message: string; fieldErrors: Record<string, string>; comment: string };
  busy: boolean;
}) {
  const prefix = `avaliacao-${product.productId}`;
  const ratingError = refused?.fieldErrors.rating;
  const commentError = refused?.fieldErrors.comment;
  return (
    <li
      id={prefix}
      className="flex flex-col gap-4 rounded-card border border-card-border bg-card p-4"
      data-testid="review-product"
    >
      <div className="flex items-center gap-3">
        <Thumbnail
          src={product.imageUrl}
          size={56}
          className="h-14 w-14 shrink-0 rounded-card"
          fallback={<span aria-hidden="true" className="h-14 w-14 shrink-0 rounded-card bg-page" />}
        />
        <h2 className="min-w-0 text-lg font-semibold break-words">{product.name}</h2>
      </div>
      {product.review ? (
        <p role="status" className="font-semibold">
          {product.review.status === 'pending'
            ? BUYER_REVIEW_MESSAGES.sent
            : BUYER_REVIEW_MESSAGES.already}
        </p>
      ) : (
        <Form method="post" className="flex flex-col gap-4" aria-label={`Avaliar ${product.name}`}>
          <input type="hidden" name="productId" value={product.productId} />
          {refused && !ratingError && !commentError ? (
            <p role="alert" className="text-sm font-semibold text-danger">
              {refused.message}
            </p>
          ) : null}
          <fieldset
            className="flex flex-col gap-2"
            aria-describedby={ratingError ? `${prefix}-rating-error` : undefined}
          >
            <legend className="text-sm font-semibold">Sua nota</legend>
            <div className="flex flex-wrap gap-x-4 gap-y-2">
              {RATING_CHOICES.map((choice) => (
                <label key={choice.value} className="flex min-h-11 items-center gap-2">
                  <input
                    type="radio"
                    name="rating"
                    value={choice.value}
                    required
                    className="h-5 w-5"
                  />
                  <span aria-hidden="true" className="text-amber-500">
                    {'★'.repeat(choice.value)}
                  </span>
                  <span>{choice.label}</span>
                </label>
              ))}
            </div>
            {ratingError ? (
              <p
                id={`${prefix}-rating-error`}
                role="alert"
                className="text-sm font-semibold text-danger"
              >
                {ratingError}
              </p>
            ) : null}
          </fieldset>
          <div className="flex flex-col gap-1">
            <label htmlFor={`${prefix}-comment`} className="text-sm font-semibold">
              Comentário (opcional)
            </label>
            <textarea
              id={`${prefix}-comment`}
              name="comment"
              rows={4}
              maxLength={2000}
              defaultValue={refused?.comment}
              aria-invalid={commentError ? true : undefined}
              aria-describedby={commentError ? `${prefix}-comment-error` : undefined}
              className="field"
            />
            {commentError ? (
              <p
                id={`${prefix}-comment-error`}
                role="alert"
                className="text-sm font-semibold text-danger"
              >
                {commentError}
              </p>
            ) : null}
          </div>
          <SubmitButton busy={busy} busyLabel="Enviando..." className="btn btn-primary self-start">
            Enviar avaliação
          </SubmitButton>
        </Form>
      )}
    </li>
  );
}

export default function ReviewOrder({ loaderData, actionData }: Route.ComponentProps) {
  const page = loaderData as Page;
  const navigation = useNavigation();
  const sending = navigation.state === 'submitting' ? navigation.formData?.get('productId') : null;
  const reply = actionData && 'toast' in actionData && !actionData.ok ? actionData : undefined;
  const refusedId = reply?.values?.productId;
  return (
    <div className="section-spacing mx-auto flex max-w-2xl flex-col gap-6 px-4">
      <h1 className="text-2xl sm:text-3xl">{BUYER_REVIEW_MESSAGES.title}</h1>
      {page.kind === 'open' ? (
        <>
          <p>
            Conte o que achou dos produtos do pedido {page.number}. Sua avaliação aparece na loja,
            com o seu primeiro nome e o selo de compra verificada, depois de revisada pela equipe.
          </p>
          {reply && !refusedId ? (
            <p role="alert" className="font-semibold text-danger">
              {reply.toast.message}
            </p>
          ) : null}
          {page.products.length === 0 ? (
            <p>{BUYER_REVIEW_MESSAGES.noProducts}</p>
          ) : (
            <ul className="flex flex-col gap-4">
              {page.products.map((product) => (
                <ProductReview
                  key={product.productId}
                  product={product}
                  busy={sending === product.productId}
                  refused={
                    reply && refusedId === product.productId
                      ? {
                          message: reply.toast.message,
                          fieldErrors: reply.fieldErrors ?? {},
                          comment: reply.values?.comment ?? '',
                        }
                      : undefined
                  }
                />
              ))}
            </ul>
          )}
        </>
      ) : (
        <p role="status" className="text-lg">
          {page.kind === 'disabled'
            ? BUYER_REVIEW_MESSAGES.disabled
            : page.kind === 'missing'
              ? BUYER_REVIEW_MESSAGES.notFound
              : BUYER_REVIEW_MESSAGES.notDelivered}
        </p>
      )}
      <Link to="/products" className="btn btn-secondary self-start">
        Ver produtos
      </Link>
    </div>
  );
}
