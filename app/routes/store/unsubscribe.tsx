import { data, Form, Link } from 'react-router';

import { seoContext } from '~/components/store/store-data';
import { PRIVATE_PAGE_HANDLE, privatePageHeaders } from '~/lib/private-pages';
import { seoMeta } from '~/lib/seo';
import {
  maskEmail,
  RECOVERY_KEY_PARAM,
  RECOVERY_MESSAGES,
  UNSUBSCRIBE_PATH,
} from '~/modules/recovery';
import { unsubscribeByKey, unsubscribeKeyEmail } from '~/modules/recovery/index.server';

import type { Route } from './+types/unsubscribe';

type Answer = { kind: 'ask'; key: string; email: string } | { kind: 'done' } | { kind: 'invalid' };

const keyOf = (request: Request) => new URL(request.url).searchParams.get(RECOVERY_KEY_PARAM) ?? '';

/**
 * The unsubscribe link only asks: mail scanners open links (GET), and must not unsubscribe
 * anyone. The button POSTs, as does a mail program's one-click unsubscribe (RFC 8058: a POST to
 * the List-Unsubscribe address, the key in it, no cookie).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const key = keyOf(request);
  const email = await unsubscribeKeyEmail(context.db, key, new Date());
  if (!email) return data<Answer>({ kind: 'invalid' }, 404);
  return data<Answer>({ kind: 'ask', key, email: maskEmail(email) });
}

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== 'POST')
    return data<Answer>(
      { kind: 'invalid' },
      { status: 405, headers: { Allow: 'GET, HEAD, POST' } },
    );
  const done = await unsubscribeByKey(context.db, keyOf(request), new Date());
  return data<Answer>(done ? { kind: 'done' } : { kind: 'invalid' }, done ? 200 : 404);
}

export const handle = PRIVATE_PAGE_HANDLE;
export const headers = privatePageHeaders;

export function meta({ matches }: Route.MetaArgs) {
  return seoMeta(seoContext(matches), {
    title: RECOVERY_MESSAGES.unsubscribeTitle,
    path: UNSUBSCRIBE_PATH,
    noindex: true,
  });
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const answer = (actionData && 'kind' in actionData ? actionData : loaderData) as Answer;
  return (
    <div className="section-spacing mx-auto flex max-w-xl flex-col gap-4 px-4">
      <h1 className="text-2xl sm:text-3xl">{RECOVERY_MESSAGES.unsubscribeTitle}</h1>
      {answer.kind === 'ask' ? (
        <Form
          method="post"
          action={`${UNSUBSCRIBE_PATH}?${new URLSearchParams({ [RECOVERY_KEY_PARAM]: answer.key })}`}
          className="flex flex-col items-start gap-4"
        >
          <p>{RECOVERY_MESSAGES.unsubscribeAsk(answer.email)}</p>
          <button type="submit" className="btn btn-primary">
            {RECOVERY_MESSAGES.unsubscribeButton}
          </button>
        </Form>
      ) : (
        <p role="status" className="text-lg">
          {answer.kind === 'done'
            ? RECOVERY_MESSAGES.unsubscribed
            : RECOVERY_MESSAGES.unsubscribeInvalid}
        </p>
      )}
      <Link to="/" className="btn btn-secondary self-start">
        Voltar à loja
      </Link>
    </div>
  );
}
