import type { StoreSettings } from '~/modules/settings';

type Command = (...args: unknown[]) => void;

// The vendors' command queues exist only when their scripts were loaded, which happens only
// after the shopper consented; without consent there is nothing to report to.
export interface TrackingWindow {
  gtag?: Command;
  fbq?: Command;
  ttq?: { track?: Command };
  pintrk?: Command;
  snaptr?: Command;
}

export interface TrackedItem {
  id: string;
  name: string;
  priceCents: number;
  quantity: number;
}

/** What reporting an event reads of the settings: the Google Ads conversion to count. */
export type AdsSettings = Pick<
  StoreSettings,
  'google_ads_conversion_id' | 'google_ads_conversion_label'
>;
