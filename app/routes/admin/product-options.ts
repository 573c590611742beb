import { requireAdmin } from '~/modules/auth/index.server';
import { parseAdminProductParams } from '~/modules/catalog/index.admin';
import { listProductOptions } from '~/modules/catalog/index.admin.server';

import type { Route } from './+types/product-options';

/** The product picker's search (the review form's 'Produto'): `?q=` → matching products. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { q } = parseAdminProductParams(new URL(request.url).searchParams);
  return Response.json(await listProductOptions(context.db, q));
}
