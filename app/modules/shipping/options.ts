import { carrierPriceCents } from '~/modules/pricing';
import type { StoreSettings } from '~/modules/settings';

import type { CarrierQuote, ShippingOption } from './types';

export type OptionSettings = Pick<
  StoreSettings,
  | 'shipping_services'
  | 'shipping_markup_cents'
  | 'shipping_markup_percent'
  | 'shipping_handling_days'
>;

/**
 * The carriers' services as the store offers them: only the services it picked (all when it
 * picked none), with its markup on the price and its handling days on the delivery time,
 * cheapest first. Applied to every answer, cached or not, so a change of settings counts at once.
 */
export function storeOptions(
  quotes: readonly CarrierQuote[],
  settings: OptionSettings,
): ShippingOption[] {
  const picked = settings.shipping_services ? settings.shipping_services.split(',') : null;
  return quotes
    .filter((quote) => !picked || picked.includes(quote.serviceId))
    .map((quote) => ({
      id: quote.serviceId,
      carrier: quote.carrier,
      service: quote.service,
      priceCents: carrierPriceCents(quote.priceCents, settings),
      businessDays: quote.businessDays + settings.shipping_handling_days,
    }))
    .sort((a, b) => a.priceCents - b.priceCents || a.businessDays - b.businessDays);
}
