import { useRouteLoaderData } from 'react-router';

import type { loader } from '~/routes/admin/layout';

/**
 * The address of a storefront page from the admin: the same path, or the store's origin before
 * it when the admin has an origin of its own (ADMIN_URL), where the store's paths go elsewhere.
 */
export function useStorefrontUrl(): (path: string) => string {
  const origin = useRouteLoaderData<typeof loader>('routes/admin/layout')?.storefrontOrigin ?? '';
  return (path) => `${origin}${path}`;
}
