import { redirect } from 'react-router';

import { findSignedInShopper, shopperDataExport } from '~/flows/shopper-account.server';
import { ACCOUNT_PATH, SIGN_IN_PATH } from '~/modules/shoppers';

import type { Route } from './+types/account-data';

/** 'Baixar meus dados': a JSON file of everything the store holds on the signed-in shopper. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const now = new Date();
  const shopper = await findSignedInShopper(context.db, request, now);
  if (!shopper) throw redirect(`${SIGN_IN_PATH}?${new URLSearchParams({ voltar: ACCOUNT_PATH })}`);
  const data = await shopperDataExport(context.db, shopper, now);
  return new Response(`${JSON.stringify(data, null, 2)}\n`, {
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Disposition': `attachment; filename="meus-dados-${now.toISOString().slice(0, 10)}.json"`,
      'Cache-Control': 'private, no-store',
    },
  });
}
