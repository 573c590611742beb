import { redirect, redirectDocument } from 'react-router';

import { AccountPage } from '~/components/store/account-page';
import { seoContext } from '~/components/store/store-data';
import {
  accountPage,
  deleteShopperAccount,
  findSignedInShopper,
  runAccountAction,
} from '~/flows/shopper-account.server';
import { parseForm, refuseOtherMethods } from '~/lib/form.server';
import { PRIVATE_PAGE_HANDLE, privatePageHeaders } from '~/lib/private-pages';
import { seoMeta } from '~/lib/seo';
import { refuseForm, successWithToast } from '~/lib/toast.server';
import {
  ACCOUNT_MESSAGES,
  ACCOUNT_PATH,
  accountActionSchema,
  SIGN_IN_PATH,
} from '~/modules/shoppers';
import { clearShopperCookie } from '~/modules/shoppers/index.server';

import type { Route } from './+types/account';

const signIn = () => redirect(`${SIGN_IN_PATH}?${new URLSearchParams({ voltar: ACCOUNT_PATH })}`);

export async function loader({ request, context }: Route.LoaderArgs) {
  const shopper = await findSignedInShopper(context.db, request, new Date());
  if (!shopper) throw signIn();
  const { timezone } = await context.settings.get();
  return accountPage(context.db, shopper, timezone);
}

/** '/conta''s forms, each by its `intent`, for the signed-in shopper only. */
export async function action({ request, context }: Route.ActionArgs) {
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  const now = new Date();
  const shopper = await findSignedInShopper(context.db, request, now);
  if (!shopper) throw signIn();
  const parsed = await parseForm(request, accountActionSchema, { repeatable: ['enabled'] });
  if (!parsed.ok) return refuseForm(parsed.error, { ...parsed, intent: parsed.values.intent });
  const { intent } = parsed.data;
  if (parsed.data.intent === 'delete') {
    const deleted = await deleteShopperAccount(context.db, shopper, parsed.data.code, now);
    if (deleted !== 'deleted') {
      const message = deleted === 'wrong' ? ACCOUNT_MESSAGES.wrongCode : ACCOUNT_MESSAGES.codeSpent;
      return refuseForm(message, { fieldErrors: { code: message }, intent }, 400);
    }
    return redirectDocument(`${SIGN_IN_PATH}?excluida=1`, {
      status: 303,
      headers: { 'Set-Cookie': await clearShopperCookie(request) },
    });
  }
  const result = await runAccountAction(context.db, shopper, parsed.data, {
    ip: context.clientIp,
    now,
  });
  if (!result.ok) {
    return refuseForm(
      result.message,
      { intent },
      result.status,
      result.retryAfterSeconds ? { 'Retry-After': String(result.retryAfterSeconds) } : undefined,
    );
  }
  return successWithToast(request, result.message, { intent, favoriteIds: result.favoriteIds });
}

export const headers = privatePageHeaders;

export const handle = PRIVATE_PAGE_HANDLE;

export function meta({ matches }: Route.MetaArgs) {
  return seoMeta(seoContext(matches), { title: 'Minha conta', path: ACCOUNT_PATH, noindex: true });
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const reply = actionData && 'toast' in actionData ? actionData : undefined;
  return <AccountPage view={loaderData} reply={reply} />;
}
