import { lineTotalCents } from '~/modules/pricing';

import type { AdsSettings, TrackedItem, TrackingWindow } from './tools';

/** Reports an add to cart to the ad and analytics tools the store set up. */
export function trackAddToCart(settings: AdsSettings, item: TrackedItem): void {
  const w = window as TrackingWindow;
  const value = lineTotalCents(item.priceCents, item.quantity) / 100;
  const price = item.priceCents / 100;
  if (settings.google_ads_conversion_id && settings.google_ads_conversion_label) {
    w.gtag?.('event', 'conversion', {
      send_to: `${settings.google_ads_conversion_id}/${settings.google_ads_conversion_label}`,
      value,
      currency: 'BRL',
    });
  }
  w.gtag?.('event', 'add_to_cart', {
    currency: 'BRL',
    value,
    items: [{ item_id: item.id, item_name: item.name, price, quantity: item.quantity }],
  });
  w.fbq?.('track', 'AddToCart', {
    content_ids: [item.id],
    content_name: item.name,
    content_type: 'product',
    value,
    currency: 'BRL',
  });
  w.ttq?.track?.('AddToCart', {
    content_id: item.id,
    quantity: item.quantity,
    value,
    currency: 'BRL',
  });
  w.pintrk?.('track', 'addtocart', { value, order_quantity: item.quantity, currency: 'BRL' });
  w.snaptr?.('track', 'ADD_CART', { price: value, currency: 'BRL', item_ids: [item.id] });
}

/** Reports a paid order to the ad and analytics tools (the thank-you page calls it once). */
export function trackPurchase(
  settings: AdsSettings,
  order: { id: string; totalCents: number; items: TrackedItem[] },
): void {
  const w = window as TrackingWindow;
  const value = order.totalCents / 100;
  const ids = order.items.map((item) => item.id);
  if (settings.google_ads_conversion_id && settings.google_ads_conversion_label) {
    w.gtag?.('event', 'conversion', {
      send_to: `${settings.google_ads_conversion_id}/${settings.google_ads_conversion_label}`,
      value,
      currency: 'BRL',
      transaction_id: order.id,
    });
  }
  w.gtag?.('event', 'purchase', {
    transaction_id: order.id,
    currency: 'BRL',
    value,
    items: order.items.map((item) => ({
      item_id: item.id,
      item_name: item.name,
      price: item.priceCents / 100,
      quantity: item.quantity,
    })),
  });
  w.fbq?.('track', 'Purchase', {
    content_ids: ids,
    content_type: 'product',
    value,
    currency: 'BRL',
  });
  w.ttq?.track?.('CompletePayment', { value, currency: 'BRL' });
  w.pintrk?.('track', 'checkout', { value, currency: 'BRL', order_id: order.id });
  w.snaptr?.('track', 'PURCHASE', { price: value, currency: 'BRL', transaction_id: order.id });
}
