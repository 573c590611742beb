import type { AdsSettings, TrackedItem, TrackingWindow } from './tools';

function anyTool(): boolean {
  const w = window as TrackingWindow;
  return Boolean(w.gtag || w.fbq || w.ttq || w.pintrk || w.snaptr);
}

// What each tool is told (./events) is fetched the first time there is something to tell: no
// storefront page needs that code to show itself, and without consent it is never fetched.

/** Reports an add to cart to the ad and analytics tools the store set up. */
export function trackAddToCart(settings: AdsSettings, item: TrackedItem): void {
  if (!anyTool()) return;
  void import('./events').then((events) => events.trackAddToCart(settings, item));
}

/** Reports a paid order to the ad and analytics tools (the thank-you page calls it once). */
export function trackPurchase(
  settings: AdsSettings,
  order: { id: string; totalCents: number; items: TrackedItem[] },
): void {
  if (!anyTool()) return;
  void import('./events').then((events) => events.trackPurchase(settings, order));
}
