import { useEffect, useRef } from 'react';
import { Link, useLocation } from 'react-router';

import { CloseIcon, MenuIcon } from '~/components/ui/icons';

import { MENU_LINKS } from './navigation';

/**
 * The slide-in menu. A modal <dialog> gives focus containment, Escape to close and focus return
 * for free; this adds closing on a click outside the panel, on navigation, and the scroll lock.
 * Before JavaScript loads the same links are in the footer.
 */
export function StoreMenu() {
  const dialog = useRef<HTMLDialogElement>(null);
  const { pathname } = useLocation();

  useEffect(() => {
    dialog.current?.close();
  }, [pathname]);

  function open() {
    document.documentElement.style.overflow = 'hidden';
    dialog.current?.showModal();
  }

  return (
    <>
      <button
        type="button"
        onClick={open}
        className="btn-outline inline-flex h-11 w-11 items-center justify-center rounded-button text-icon"
        aria-haspopup="dialog"
        aria-label="Abrir menu"
      >
        <MenuIcon />
      </button>
      {/* The keyboard way out is Escape, which <dialog> handles itself. */}
      {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions */}
      <dialog
        ref={dialog}
        aria-label="Menu"
        onClose={() => document.documentElement.style.removeProperty('overflow')}
        // A click on the dialog element itself is a click on the backdrop, outside the panel.
        onClick={(event) => {
          if (event.target === dialog.current) dialog.current.close();
        }}
        className="fixed inset-y-0 left-0 m-0 h-full max-h-none w-[min(320px,85vw)] max-w-[320px] bg-card p-0 text-ink shadow-xl transition-transform duration-200 backdrop:bg-black/50 starting:open:-translate-x-full"
      >
        <nav aria-label="Menu principal" className="flex h-full flex-col p-4">
          <div className="mb-4 flex items-center justify-between">
            <p className="font-heading text-lg font-bold">Menu</p>
            <button
              type="button"
              onClick={() => dialog.current?.close()}
              className="inline-flex h-11 w-11 items-center justify-center rounded-button text-icon"
              aria-label="Fechar menu"
            >
              <CloseIcon />
            </button>
          </div>
          <ul className="flex flex-col">
            <li>
              <Link to="/" className="block rounded-button px-3 py-3 text-nav hover:bg-page">
                Início
              </Link>
            </li>
            {MENU_LINKS.map((link) => (
              <li key={link.to}>
                <Link
                  to={link.to}
                  className="block rounded-button px-3 py-3 text-nav hover:bg-page"
                  aria-current={pathname === link.to ? 'page' : undefined}
                >
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </dialog>
    </>
  );
}
