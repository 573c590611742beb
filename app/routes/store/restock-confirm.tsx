import { data, Form, Link } from 'react-router';
import { z } from 'zod';

import { seoContext } from '~/components/store/store-data';
import { confirmRestockAlert } from '~/flows/restock-alerts.server';
import { parseForm, refuseOtherMethods } from '~/lib/form.server';
import { PRIVATE_PAGE_HANDLE, privatePageHeaders } from '~/lib/private-pages';
import { seoMeta } from '~/lib/seo';
import {
  variantLabel,
  variantPath,
  RESTOCK_CONFIRM_MESSAGES,
  RESTOCK_CONFIRM_PARAM,
  RESTOCK_CONFIRM_PATH,
} from '~/modules/catalog';
import { findRestockRequestByToken } from '~/modules/catalog/index.server';

import type { Route } from './+types/restock-confirm';

type Answer =
  | { kind: 'ask'; token: string; email: string; productName: string; productUrl: string }
  | { kind: 'confirmed'; email: string; productName: string; productUrl: string }
  | { kind: 'invalid' };

const tokenSchema = z.object({ [RESTOCK_CONFIRM_PARAM]: z.string().max(100) });

/**
 * The confirmation e-mail's link only shows a 'Confirmar' button: mail scanners and link
 * previews open links (GET), and must not confirm an address for its owner. The button POSTs.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get(RESTOCK_CONFIRM_PARAM) ?? '';
  const found = await findRestockRequestByToken(context.db, token);
  if (!found) return data<Answer>({ kind: 'invalid' }, 404);
  const named = {
    email: found.email,
    productName: variantLabel(found.product),
    productUrl: variantPath(found.product),
  };
  return data<Answer>(
    found.confirmed ? { kind: 'confirmed', ...named } : { kind: 'ask', token, ...named },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  const parsed = await parseForm(request, tokenSchema);
  const confirmed = parsed.ok
    ? await confirmRestockAlert(context.db, parsed.data[RESTOCK_CONFIRM_PARAM])
    : null;
  if (!confirmed) return data<Answer>({ kind: 'invalid' }, parsed.ok ? 404 : 400);
  return data<Answer>({
    kind: 'confirmed',
    email: confirmed.email,
    productName: variantLabel(confirmed.product),
    productUrl: variantPath(confirmed.product),
  });
}

// The e-mailed link carries the alert's key and the page shows the shopper's e-mail.
export const handle = PRIVATE_PAGE_HANDLE;
export const headers = privatePageHeaders;

export function meta({ matches }: Route.MetaArgs) {
  return seoMeta(seoContext(matches), {
    title: RESTOCK_CONFIRM_MESSAGES.title,
    path: RESTOCK_CONFIRM_PATH,
    noindex: true,
  });
}

export default function RestockConfirm({ loaderData, actionData }: Route.ComponentProps) {
  const answer = (actionData && 'kind' in actionData ? actionData : loaderData) as Answer;
  return (
    <div className="section-spacing mx-auto flex max-w-xl flex-col gap-4 px-4">
      <h1 className="text-2xl sm:text-3xl">{RESTOCK_CONFIRM_MESSAGES.title}</h1>
      {answer.kind === 'ask' ? (
        // Posted to the link's own address, so the page shown after it finds the request too.
        <Form
          method="post"
          action={`${RESTOCK_CONFIRM_PATH}?${new URLSearchParams({ [RESTOCK_CONFIRM_PARAM]: answer.token })}`}
          className="flex flex-col items-start gap-4"
        >
          <p>{RESTOCK_CONFIRM_MESSAGES.ask(answer.email, answer.productName)}</p>
          <input type="hidden" name={RESTOCK_CONFIRM_PARAM} value={answer.token} />
          <button type="submit" className="btn btn-primary">
            {RESTOCK_CONFIRM_MESSAGES.button}
          </button>
        </Form>
      ) : (
        <p role="status" className="text-lg">
          {answer.kind === 'confirmed'
            ? RESTOCK_CONFIRM_MESSAGES.confirmed(answer.email, answer.productName)
            : RESTOCK_CONFIRM_MESSAGES.invalid}
        </p>
      )}
      {answer.kind === 'invalid' ? (
        <Link to="/products" className="btn btn-secondary self-start">
          Ver produtos
        </Link>
      ) : (
        <Link to={answer.productUrl} className="btn btn-secondary self-start">
          Ver o produto
        </Link>
      )}
    </div>
  );
}
