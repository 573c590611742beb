import { Link, useFetchers, useLocation, useRouteLoaderData } from 'react-router';

import { useRootData, useSettings, useStoreData } from '~/components/store/store-data';
import { CartIcon, HeartIcon } from '~/components/ui/icons';
import { HydrationSlice } from '~/components/ui/hydration-slice';
import { publicFileUrl } from '~/lib/public-files';
import type { PricedCart } from '~/modules/cart';
import { categoryPath } from '~/modules/catalog';

import { CheckoutHeader } from './checkout-header';
import { useOptimisticLines } from './optimistic-lines';
import { HeaderSearch, PhoneSearch } from './search-field';
import { StoreMenu, useCurrentCategory } from './store-menu';
import { ThemeToggle } from './theme-toggle';

/** Units being added right now, so the badge moves before the server has answered. */
function usePendingAdds(): number {
  return useFetchers()
    .filter(
      (fetcher) =>
        fetcher.state !== 'idle' &&
        fetcher.formAction === '/cart' &&
        fetcher.formData?.get('intent') === 'add',
    )
    .reduce((sum, fetcher) => sum + (Number(fetcher.formData?.get('quantity')) || 1), 0);
}

/**
 * The badge's count: the server's, moved at once by changes still in flight. On the cart page
 * the lines themselves are known, so +, − and remove count too.
 */
function useCartCount(): number {
  const cartLines = useRouteLoaderData<PricedCart>('routes/store/cart')?.lines;
  const optimisticLines = useOptimisticLines(cartLines ?? []);
  const serverCount = useStoreData()?.cartCount ?? 0;
  const pendingAdds = usePendingAdds();
  const known = cartLines
    ? optimisticLines.reduce((sum, line) => sum + line.quantity, 0)
    : serverCount;
  return known + pendingAdds;
}

/**
 * From 768 px, the categories that hold a product in a bar under the header's row, so that a
 * desktop shows where to go without opening the menu (phones find them in the menu).
 */
function CategoryBar() {
  const categories = useStoreData()?.categories ?? [];
  const current = useCurrentCategory();
  if (categories.length === 0) return null;
  return (
    <nav
      aria-label="Navegar por categoria"
      className="hidden border-t border-card-border md:block"
      data-testid="category-bar"
    >
      <ul className="mx-auto flex max-w-store gap-1 overflow-x-auto px-2 sm:px-4">
        {categories.map((category) => (
          <li key={category.slug} className="shrink-0">
            <Link
              to={categoryPath(category)}
              aria-current={current === category.slug ? 'page' : undefined}
              className="inline-flex min-h-11 items-center px-3 text-sm font-medium text-nav hover:underline aria-[current=page]:underline"
            >
              {category.name}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The store's header; on the checkout, the checkout's own (see CheckoutHeader). */
export function StoreHeader() {
  return useLocation().pathname === '/checkout' ? <CheckoutHeader /> : <FullHeader />;
}

/**
 * The store's header, kept on screen while the page scrolls (compact on phones): menu, logo,
 * search (a field on wider screens, an icon that opens one on phones), favourites and the cart
 * with its badge, and from 768 px the category bar. From 1024 px the catalogue shows its own
 * search field beside the results, so there the header leaves its field out.
 */
function FullHeader() {
  const settings = useSettings();
  const colorScheme = useRootData()?.colorScheme ?? null;
  const count = useCartCount();
  const inCatalogue = useLocation().pathname === '/products';
  const cartLabel =
    count === 0 ? 'Carrinho, vazio' : `Carrinho, ${count} ${count === 1 ? 'item' : 'itens'}`;
  return (
    <>
      {settings.header_banner_url ? (
        <img
          src={publicFileUrl(settings.header_banner_url)}
          alt=""
          className="block max-h-24 w-full object-cover"
          width={1280}
          height={96}
        />
      ) : null}
      <header
        className="sticky top-0 z-40 border-b border-card-border bg-header text-header-ink"
        data-testid="store-header"
      >
        <div
          className={`relative mx-auto flex max-w-store items-center gap-1 px-2 py-1 sm:gap-2 sm:px-4 sm:py-3 ${
            settings.header_style === 'centered' ? 'justify-between' : ''
          }`}
        >
          {/* What a tap opens hydrates on its own, before the rest of the header (ADR 023). */}
          <HydrationSlice>
            <StoreMenu />
          </HydrationSlice>
          <Link
            to="/"
            className={`flex min-w-0 items-center gap-2 ${
              settings.header_style === 'centered' ? '' : 'mr-auto'
            }`}
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
          <div
            className={`hidden flex-1 justify-center px-2 md:flex ${inCatalogue ? 'lg:hidden' : ''}`}
          >
            <HydrationSlice>
              <HeaderSearch />
            </HydrationSlice>
          </div>
          <div className="flex shrink-0 items-center sm:gap-1">
            <Link
              to="/products"
              className="hidden rounded-button px-3 py-2 text-nav hover:underline sm:inline-block"
            >
              Produtos
            </Link>
            <div className="md:hidden">
              <HydrationSlice>
                <PhoneSearch />
              </HydrationSlice>
            </div>
            {settings.enable_wishlist ? (
              <Link
                to="/favoritos"
                className="inline-flex h-11 w-11 items-center justify-center rounded-button text-icon"
                aria-label="Favoritos"
                data-testid="header-favorites"
              >
                <HeartIcon />
              </Link>
            ) : null}
            {settings.enable_dark_mode ? (
              <HydrationSlice>
                <ThemeToggle scheme={colorScheme} />
              </HydrationSlice>
            ) : null}
            <Link
              to="/cart"
              className="relative inline-flex h-11 w-11 items-center justify-center rounded-button text-icon"
              aria-label={cartLabel}
            >
              <CartIcon />
              {count > 0 ? (
                <span
                  data-testid="cart-count"
                  aria-hidden="true"
                  className="absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-(--store-button-primary-color) px-1.5 text-center text-xs leading-5 font-bold text-(--store-button-primary-text-color)"
                >
                  {count > 99 ? '99+' : count}
                </span>
              ) : null}
            </Link>
          </div>
        </div>
        <CategoryBar />
      </header>
    </>
  );
}
