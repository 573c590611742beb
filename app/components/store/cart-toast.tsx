import { useEffect, useState, useSyncExternalStore } from 'react';
import { Link, useLocation } from 'react-router';

import { useSettings } from '~/components/store/store-data';
import { CheckIcon, CloseIcon } from '~/components/ui/icons';
import { useOnChange } from '~/lib/use-on-change';
import type { CartReply } from '~/modules/cart';

// Long enough to read the message and reach a link; paused while hovered or focused.
const SHOW_MS = 6000;

interface Toast {
  reply: CartReply;
  /** Where it came from, as the tests know it: 'card-feedback' or 'cart-feedback'. */
  testId: string;
}

// One toast for the whole page: a second add replaces the first instead of stacking.
let current: Toast | null = null;
const listeners = new Set<() => void>();

function publish(next: Toast | null) {
  current = next;
  for (const listener of listeners) listener();
}

/** Shows the cart's answer to an add in the page's toast (a newer answer replaces it). */
export function showCartToast(reply: CartReply, testId: string) {
  // Effects run twice in development; the same answer is one toast.
  if (current?.reply !== reply) publish({ reply, testId });
}

function hideCartToast() {
  if (current) publish(null);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The answer to "add to cart", fixed at the bottom of the screen so nothing on the page moves:
 * the message, 'Ver carrinho' and 'Finalizar compra'. The live region is in the page from the
 * server on, so screen readers announce what fills it. It closes by itself after a few seconds
 * (not while the pointer or focus is in it), on Escape, on its close button, and on navigation.
 */
export function CartToast() {
  const settings = useSettings();
  const toast = useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
  const { pathname } = useLocation();
  // The toast the pointer or focus is in; a newer toast is not held by it.
  const [heldToast, setHeldToast] = useState<Toast | null>(null);
  const held = toast !== null && heldToast === toast;

  useOnChange(pathname, hideCartToast);

  useEffect(() => {
    if (!toast) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') hideCartToast();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [toast]);

  useEffect(() => {
    if (!toast || held) return;
    const timer = setTimeout(hideCartToast, SHOW_MS);
    return () => clearTimeout(timer);
  }, [toast, held]);

  const reply = toast?.reply;
  return (
    <div
      role="status"
      data-testid={toast?.testId ?? 'cart-toast'}
      className="pointer-events-none fixed inset-x-0 bottom-0 z-50 flex justify-center p-3 sm:justify-end sm:p-4"
    >
      {reply ? (
        <div
          className="pointer-events-auto w-full max-w-sm rounded-card border border-card-border bg-card p-4 text-ink shadow-xl transition-[opacity,translate] duration-200 starting:translate-y-2 starting:opacity-0"
          onMouseEnter={() => setHeldToast(toast)}
          onMouseLeave={() => setHeldToast(null)}
          onFocus={() => setHeldToast(toast)}
          onBlur={(event) => {
            if (!event.currentTarget.contains(event.relatedTarget)) setHeldToast(null);
          }}
        >
          <div className="flex items-start gap-2">
            {reply.ok ? <CheckIcon className="h-5 w-5 shrink-0 text-pix" /> : null}
            <p
              className={`flex-1 text-sm font-semibold ${reply.ok ? '' : 'text-danger'}`}
              data-testid="cart-toast-message"
            >
              {reply.toast.message}
            </p>
            <button
              type="button"
              onClick={hideCartToast}
              className="-mt-2 -mr-2 inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-button text-icon"
              aria-label="Fechar aviso"
            >
              <CloseIcon className="h-5 w-5" />
            </button>
          </div>
          {reply.ok ? (
            <div className="mt-3 grid grid-cols-2 gap-2">
              <Link to="/cart" className="btn btn-outline text-sm whitespace-nowrap">
                {settings.view_cart_text}
              </Link>
              <Link to="/checkout" className="btn btn-primary text-sm whitespace-nowrap">
                {settings.checkout_text}
              </Link>
            </div>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
