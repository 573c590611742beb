import { useRouteLoaderData } from 'react-router';

/**
 * The address of a storefront page from the admin: the same path, or the store's origin before
 * it when the admin has an origin of its own (ADMIN_URL), where the store's paths go elsewhere.
 */
export function useStorefrontUrl(): (path: string) => string {
  const origin =
    useRouteLoaderData<{ storefrontOrigin: string }>('routes/admin/layout')?.storefrontOrigin ?? '';
  return (path) => `${origin}${path}`;
}
