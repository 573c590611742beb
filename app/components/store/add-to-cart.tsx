import { useRef } from 'react';
import { useFetcher } from 'react-router';

import { useSettings } from '~/components/store/store-data';
import { useEachAnswer } from '~/lib/use-each-answer';
import type { CartReply } from '~/modules/cart';
import type { Product } from '~/modules/catalog';
import { trackAddToCart } from '~/modules/tracking';

import { showCartToast } from './cart-toast';

/**
 * A fetcher for the cart action that reports each successful add to the store's tracking tools
 * once (revalidation re-renders with the same reply). Call `noteQuantity` on submit so the event
 * carries the quantity that was sent.
 */
export function useAddToCart(product: Pick<Product, 'id' | 'name' | 'priceCents'>) {
  const settings = useSettings();
  const fetcher = useFetcher<CartReply>();
  const quantity = useRef(1);
  const reply = fetcher.data;

  useEachAnswer(reply, (answer) => {
    if (!answer.ok) return;
    trackAddToCart(settings, {
      id: product.id,
      name: product.name,
      priceCents: product.priceCents,
      quantity: quantity.current,
    });
  });

  return {
    fetcher,
    reply,
    noteQuantity(form: HTMLFormElement) {
      quantity.current = Number(new FormData(form).get('quantity')) || 1;
    },
  };
}

/**
 * Hands the cart's answer to the page's toast (see cart-toast.tsx), which shows it fixed on the
 * screen with 'Ver carrinho' and 'Finalizar compra': nothing is rendered where the form is, so
 * the card or the product page never grows or moves. `className` is no longer used.
 */
export function CartFeedback({
  reply,
  testId,
}: {
  reply: CartReply | undefined;
  className?: string;
  testId: string;
}) {
  // A revalidation re-renders with the same answer; only a new one shows the toast again.
  useEachAnswer(reply, (answer) => showCartToast(answer, testId));
  return null;
}
