import { useEffect, useRef } from 'react';
import { Link, useFetcher } from 'react-router';

import { useSettings } from '~/lib/store-data';
import type { CartReply } from '~/modules/cart';
import type { Product } from '~/modules/catalog';
import { trackAddToCart } from '~/modules/tracking';

/**
 * A fetcher for the cart action that reports each successful add to the store's tracking tools
 * once (revalidation re-renders with the same reply). Call `noteQuantity` on submit so the event
 * carries the quantity that was sent.
 */
export function useAddToCart(product: Pick<Product, 'id' | 'name' | 'priceCents'>) {
  const settings = useSettings();
  const fetcher = useFetcher<CartReply>();
  const quantity = useRef(1);
  const tracked = useRef<CartReply | undefined>(undefined);
  const reply = fetcher.data;

  useEffect(() => {
    if (!reply || !('ok' in reply) || tracked.current === reply) return;
    tracked.current = reply;
    trackAddToCart(settings, {
      id: product.id,
      name: product.name,
      priceCents: product.priceCents,
      quantity: quantity.current,
    });
  }, [reply, settings, product]);

  return {
    fetcher,
    reply,
    noteQuantity(form: HTMLFormElement) {
      quantity.current = Number(new FormData(form).get('quantity')) || 1;
    },
  };
}

/** The cart's answer, read out by screen readers, with the way to the cart after an add. */
export function CartFeedback({
  reply,
  className,
  testId,
}: {
  reply: CartReply | undefined;
  className: string;
  testId: string;
}) {
  const settings = useSettings();
  return (
    <p role="status" className={className} data-testid={testId}>
      {reply && 'ok' in reply ? (
        <>
          {reply.message}{' '}
          <Link to="/cart" className="text-link underline">
            {settings.view_cart_text}
          </Link>
        </>
      ) : (
        reply?.error
      )}
    </p>
  );
}
