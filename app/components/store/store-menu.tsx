import { useRef } from 'react';
import { Link, useLocation } from 'react-router';

import { CloseIcon, MenuIcon } from '~/components/ui/icons';
import { useOnChange } from '~/lib/use-on-change';
import { categoryPath } from '~/modules/catalog';

import { MENU_LINKS } from './navigation';
import { useStoreData } from './store-data';

const MENU_ID = 'store-menu';

const LINK = 'block rounded-button px-3 py-3 text-nav hover:bg-page';

/** The category the catalogue shows, by its slug, when the page is one. */
export function useCurrentCategory(): string | null {
  const { pathname, search } = useLocation();
  return pathname === '/products' ? new URLSearchParams(search).get('categoria') : null;
}

/**
 * The slide-in menu, built on the HTML popover: the browser opens and closes it from the buttons,
 * closes it on Escape and on a click outside, and gives focus back to the opener, all before
 * JavaScript loads; the page stops scrolling while it is open (app.css). Once hydrated, this
 * moves focus into the panel and closes it after navigating. The categories that hold a product
 * are listed under 'Produtos'.
 */
export function StoreMenu() {
  const panel = useRef<HTMLDivElement>(null);
  const { pathname } = useLocation();
  const categories = useStoreData()?.categories ?? [];
  const currentCategory = useCurrentCategory();

  useOnChange(pathname, () => {
    if (panel.current?.matches(':popover-open')) panel.current.hidePopover();
  });

  return (
    <>
      <button
        type="button"
        popoverTarget={MENU_ID}
        className="btn-outline inline-flex h-11 w-11 items-center justify-center rounded-button text-icon"
        aria-label="Abrir menu"
      >
        <MenuIcon />
      </button>
      <div
        ref={panel}
        id={MENU_ID}
        popover="auto"
        role="dialog"
        aria-label="Menu"
        onToggle={(event) => {
          if (event.newState === 'open') panel.current?.querySelector('a')?.focus();
        }}
        className="store-menu fixed inset-y-0 left-0 m-0 h-full max-h-none overflow-y-auto w-[min(320px,85vw)] max-w-[320px] bg-card p-4 text-ink shadow-xl transition-transform duration-200 backdrop:bg-black/50 starting:open:-translate-x-full"
      >
        <div className="mb-4 flex items-center justify-between">
          <p className="font-heading text-lg font-bold">Menu</p>
          <button
            type="button"
            popoverTarget={MENU_ID}
            popoverTargetAction="hide"
            className="inline-flex h-11 w-11 items-center justify-center rounded-button text-icon"
            aria-label="Fechar menu"
          >
            <CloseIcon />
          </button>
        </div>
        <nav aria-label="Menu principal">
          <ul className="flex flex-col">
            <li>
              <Link to="/" className={LINK}>
                Início
              </Link>
            </li>
            {MENU_LINKS.map((link) => (
              <li key={link.to}>
                <Link
                  to={link.to}
                  className={LINK}
                  aria-current={
                    pathname === link.to && currentCategory === null ? 'page' : undefined
                  }
                >
                  {link.label}
                </Link>
                {link.to === '/products' && categories.length > 0 ? (
                  <ul aria-label="Categorias" className="mb-2 ml-3 border-l border-card-border">
                    {categories.map((category) => (
                      <li key={category.slug}>
                        <Link
                          to={categoryPath(category)}
                          className={LINK}
                          aria-current={currentCategory === category.slug ? 'page' : undefined}
                        >
                          {category.name}
                        </Link>
                      </li>
                    ))}
                  </ul>
                ) : null}
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </>
  );
}
