import { data, Link, redirect } from 'react-router';

import { seoContext } from '~/components/store/store-data';
import { restoreAbandonedCart } from '~/flows/abandoned-checkouts.server';
import { PRIVATE_PAGE_HANDLE, privatePageHeaders } from '~/lib/private-pages';
import { seoMeta } from '~/lib/seo';
import { RECOVER_PATH, RECOVERY_KEY_PARAM, RECOVERY_MESSAGES } from '~/modules/recovery';

import type { Route } from './+types/cart-recover';

/**
 * The recovery e-mail's link: the saved cart joins this browser's cart, priced today, and the
 * shopper lands on the cart. A key that restores nothing any more says so (404).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const key = new URL(request.url).searchParams.get(RECOVERY_KEY_PARAM) ?? '';
  const headers = await restoreAbandonedCart(context, request, key, new Date());
  if (!headers) return data({ invalid: true }, 404);
  throw redirect('/cart', { status: 303, headers });
}

// The link carries a key that restores someone's cart.
export const handle = PRIVATE_PAGE_HANDLE;
export const headers = privatePageHeaders;

export function meta({ matches }: Route.MetaArgs) {
  return seoMeta(seoContext(matches), {
    title: 'Recuperar carrinho',
    path: RECOVER_PATH,
    noindex: true,
  });
}

export default function CartRecover() {
  return (
    <div className="section-spacing mx-auto flex max-w-xl flex-col gap-4 px-4">
      <h1 className="text-2xl sm:text-3xl">Recuperar carrinho</h1>
      <p role="status" className="text-lg">
        {RECOVERY_MESSAGES.linkInvalid}
      </p>
      <Link to="/products" className="btn btn-secondary self-start">
        Ver produtos
      </Link>
    </div>
  );
}
