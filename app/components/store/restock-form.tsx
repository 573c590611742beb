import { useFetcher, useSearchParams } from 'react-router';

import { FormField, STORE_FORM, SubmitButton } from '~/components/ui/form';
import type { FormReply } from '~/lib/form';
import {
  RESTOCK_EMAIL_MAX,
  RESTOCK_MESSAGES,
  RESTOCK_NOTICE_PARAM,
  RESTOCK_NOTICES,
} from '~/modules/catalog';

/**
 * 'Avise-me quando chegar' under a sold-out product. With JavaScript a fetcher posts it and the
 * answer shows here; without, the browser posts it and comes back to this page with `?aviso=…`.
 * The alert is for the variant shown.
 */
export function RestockForm({ productId, variantId }: { productId: string; variantId: string }) {
  const fetcher = useFetcher<FormReply>();
  const [params] = useSearchParams();
  const reply = fetcher.data;
  // What a post without JavaScript came back saying, until the fetcher has its own answer.
  const notice = reply ? null : params.get(RESTOCK_NOTICE_PARAM);
  const done = reply?.ok
    ? reply.toast.message
    : notice === RESTOCK_NOTICES.done
      ? RESTOCK_MESSAGES.done
      : null;
  const error =
    reply && !reply.ok
      ? reply.toast.message
      : notice === RESTOCK_NOTICES.badEmail
        ? RESTOCK_MESSAGES.email
        : null;
  const busy = fetcher.state !== 'idle';

  return (
    <div
      id="avise-me"
      data-testid="restock"
      className="flex scroll-mt-24 flex-col gap-2 rounded-card border border-card-border bg-card p-3"
    >
      <p role="status" className={done ? 'font-semibold' : 'text-sm'}>
        {done ?? 'Deixe seu e-mail e avisaremos quando ele voltar ao estoque.'}
      </p>
      {done ? null : (
        <fetcher.Form method="post" action="/avise-me" className="flex flex-col gap-2">
          <input type="hidden" name="productId" value={productId} />
          <input type="hidden" name="variantId" value={variantId} />
          <FormField
            look={STORE_FORM}
            idPrefix="restock"
            name="email"
            label="Seu e-mail"
            error={error ?? undefined}
            announce
            className="flex flex-col gap-2"
          >
            {(control) => (
              <div className="flex flex-wrap gap-2">
                <input
                  {...control}
                  type="email"
                  autoComplete="email"
                  inputMode="email"
                  required
                  maxLength={RESTOCK_EMAIL_MAX}
                  className="field min-w-0 flex-[1_1_12rem]"
                />
                <SubmitButton
                  busy={busy}
                  busyLabel="Avise-me quando chegar"
                  className="btn btn-primary flex-[1_0_auto]"
                >
                  Avise-me quando chegar
                </SubmitButton>
              </div>
            )}
          </FormField>
        </fetcher.Form>
      )}
    </div>
  );
}
