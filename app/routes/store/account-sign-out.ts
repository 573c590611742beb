import { redirectDocument } from 'react-router';

import { refuseOtherMethods } from '~/lib/form.server';
import { endShopperSession } from '~/modules/shoppers/index.server';

import type { Route } from './+types/account-sign-out';

/** 'Sair' (POST only): ends this browser's shopper session, back to the store's home. */
export async function action({ request, context }: Route.ActionArgs) {
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  return redirectDocument('/', {
    status: 303,
    headers: { 'Set-Cookie': await endShopperSession(context.db, request) },
  });
}
