import type { StoreSettings } from '~/modules/settings';

export type ShippingSettings = Pick<
  StoreSettings,
  'shipping_mode' | 'default_shipping_cost_cents' | 'free_shipping_threshold_cents'
>;

/** Shipping for an order with this subtotal: free, or the flat rate below the free threshold. */
export function shippingCents(subtotalCents: number, settings: ShippingSettings): number {
  if (settings.shipping_mode === 'free') return 0;
  const threshold = settings.free_shipping_threshold_cents;
  if (threshold > 0 && subtotalCents >= threshold) return 0;
  return settings.default_shipping_cost_cents;
}
