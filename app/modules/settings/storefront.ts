import type { StoreSettings } from './settings';

/**
 * The settings the storefront's components and `meta` functions read, in the shopper's browser as
 * well as on the server. Every page carries them in its loader data, so this list is what each
 * page's HTML and each navigation's data pay for: the others (shipping origin, PIX key, invoice
 * rules, tracking ids, texts of pages rendered on the server) stay on the server.
 */
export const STOREFRONT_SETTING_KEYS = [
  'store_name',
  'store_description',
  'store_slogan',
  'welcome_message',
  'logo_url',
  'favicon_url',
  'banner_url',
  'header_banner_url',
  'meta_title',
  'meta_description',
  'meta_keywords',
  'meta_author',
  'meta_robots',
  'canonical_url',
  'og_title',
  'og_description',
  'og_image_url',
  'og_type',
  'twitter_card',
  'twitter_site',
  'twitter_title',
  'twitter_description',
  'twitter_image_url',
  'schema_type',
  'schema_description',
  'contact_email',
  'contact_phone',
  'contact_whatsapp',
  'contact_address',
  'legal_name',
  'cnpj',
  'facebook_url',
  'instagram_url',
  'twitter_url',
  'youtube_url',
  'linkedin_url',
  'tiktok_url',
  'google_ads_conversion_id',
  'google_ads_conversion_label',
  'header_style',
  'footer_style',
  'footer_text',
  'timezone',
  'enable_reviews',
  'enable_wishlist',
  'enable_chat',
  'enable_dark_mode',
  'add_to_cart_text',
  'buy_now_text',
  'view_product_text',
  'continue_shopping_text',
  'checkout_text',
  'view_cart_text',
  'search_placeholder_text',
  'filter_text',
  'clear_filters_text',
  'loading_message',
  'empty_cart_message',
  'no_products_message',
  'shipping_mode',
  'default_shipping_cost_cents',
  'free_shipping_threshold_cents',
  'min_order_value_cents',
  'estimated_delivery_days',
  'return_window_days',
  'max_quantity_per_item',
  'enable_pix',
  'enable_credit_card',
  'enable_debit_card',
  'enable_boleto',
  'enable_paypal',
  'pix_discount_percent',
  'coupon_stacks_with_pix',
  'max_installments',
  'min_installment_cents',
  'installments_interest_free',
] as const satisfies readonly (keyof StoreSettings)[];

export type StorefrontSettings = Pick<StoreSettings, (typeof STOREFRONT_SETTING_KEYS)[number]>;

/** The storefront's share of `settings`. */
export function storefrontSettings(settings: StoreSettings): StorefrontSettings {
  const share: Partial<StorefrontSettings> = {};
  for (const key of STOREFRONT_SETTING_KEYS) Object.assign(share, { [key]: settings[key] });
  return share as StorefrontSettings;
}
