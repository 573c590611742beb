import type { StoreSettings } from '~/modules/settings';

/** The shopper's answer in the cookie banner; null until they answer. */
export type Consent = 'granted' | 'denied' | null;

const TRACKING_KEYS = [
  'google_analytics_id',
  'google_tag_manager_id',
  'facebook_pixel_id',
  'google_ads_conversion_id',
  'hotjar_id',
  'clarity_id',
  'tiktok_pixel_id',
  'pinterest_tag_id',
  'snapchat_pixel_id',
  'custom_head_scripts',
  'custom_body_scripts',
  'custom_footer_scripts',
] as const satisfies readonly (keyof StoreSettings)[];

/** Whether the store loads anything the shopper must consent to; without it, no banner. */
export function needsConsent(settings: StoreSettings): boolean {
  return TRACKING_KEYS.some((key) => settings[key] !== '');
}
