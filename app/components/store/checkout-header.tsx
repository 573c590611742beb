import { Link } from 'react-router';

import { useSettings } from '~/components/store/store-data';
import { BackIcon, LockIcon } from '~/components/ui/icons';
import { publicFileUrl } from '~/lib/public-files';

/**
 * The checkout's header: the way back to the cart, the store's logo and 'Compra segura', and
 * nothing else. A shopper who is paying is not offered the menu, the search or the cart badge to
 * wander off through, as Brazilian stores' checkouts do.
 */
export function CheckoutHeader() {
  const settings = useSettings();
  return (
    <header
      className="border-b border-card-border bg-header text-header-ink"
      data-testid="checkout-header"
    >
      <div className="mx-auto grid max-w-store grid-cols-[auto_minmax(0,1fr)_auto] items-center gap-2 px-2 py-1 sm:px-4 sm:py-3">
        <Link
          to="/cart"
          className="inline-flex min-h-11 items-center gap-1 rounded-button pr-2 text-sm font-medium text-nav hover:underline"
          data-testid="checkout-back"
        >
          <BackIcon className="h-5 w-5 shrink-0" />
          <span className="sm:hidden">Carrinho</span>
          <span className="hidden sm:inline">Voltar ao carrinho</span>
        </Link>
        <Link
          to="/"
          className="flex min-w-0 items-center justify-center gap-2"
          aria-label={`${settings.store_name}: início`}
        >
          {settings.logo_url ? (
            <img
              src={publicFileUrl(settings.logo_url)}
              alt=""
              width={40}
              height={40}
              className="h-8 w-8 shrink-0 object-contain sm:h-10 sm:w-10"
              data-testid="store-logo"
            />
          ) : null}
          <span
            className="truncate font-heading text-lg font-bold sm:text-xl"
            data-testid="store-name"
          >
            {settings.store_name}
          </span>
        </Link>
        <p className="inline-flex items-center gap-1 text-sm font-semibold">
          <LockIcon className="h-5 w-5 shrink-0" />
          Compra segura
        </p>
      </div>
    </header>
  );
}
