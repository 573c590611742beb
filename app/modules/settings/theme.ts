import { themeColors } from './colors';
import { fontStack } from './fonts';
import type { SettingKey, StoreSettings } from './settings';

// The settings that style the page. Each becomes `--store-<name with dashes>`; app.css maps them
// onto Tailwind's theme, so a utility like `bg-primary` follows the store's choice.
const THEME_KEYS = [
  'primary_color',
  'secondary_color',
  'accent_color',
  'background_color',
  'text_color',
  'home_title_color',
  'button_primary_color',
  'button_primary_text_color',
  'button_primary_hover_color',
  'button_secondary_color',
  'button_secondary_text_color',
  'button_secondary_hover_color',
  'button_success_color',
  'button_success_text_color',
  'button_success_hover_color',
  'button_danger_color',
  'button_danger_text_color',
  'button_danger_hover_color',
  'product_title_color',
  'product_description_color',
  'product_price_color',
  'header_background_color',
  'header_text_color',
  'footer_background_color',
  'footer_text_color',
  'link_color',
  'icon_color',
  'nav_color',
  'breadcrumb_color',
  'card_background_color',
  'card_border_color',
  'input_background_color',
  'input_border_color',
  'base_font_size',
  'heading_font_weight',
  'product_title_font_size',
  'product_title_font_weight',
  'product_description_font_size',
  'product_price_font_size',
  'product_price_font_weight',
  'card_border_radius',
  'button_border_radius',
  'card_padding',
  'button_padding_x',
  'button_padding_y',
  'section_spacing',
  'container_max_width',
  'hover_transition_duration',
  'button_hover_scale',
  'card_hover_scale',
] as const satisfies readonly SettingKey[];

export function themeVariables(stored: StoreSettings): Record<string, string> {
  // The colours left to follow the primary one are worked out here, for the page and the preview.
  const settings = themeColors(stored);
  const variables: Record<string, string> = {
    '--store-font-body': fontStack(settings.font_family),
    '--store-font-heading': fontStack(settings.heading_font),
    // Form errors and alerts: the danger colour, lightened in the dark scheme to stay readable.
    '--store-error-color': settings.button_danger_color,
    // The PIX price: the green Brazilian stores use for it (emerald 800, 7:1 on white).
    '--store-pix-color': '#065f46',
  };
  for (const key of THEME_KEYS) {
    variables[`--store-${key.replaceAll('_', '-')}`] = String(settings[key]);
  }
  return variables;
}

// The dark scheme replaces the surfaces and text only; the store's brand colours stay.
const DARK_VARIABLES: Record<string, string> = {
  '--store-background-color': '#0f172a',
  '--store-text-color': '#e5e7eb',
  '--store-card-background-color': '#1e293b',
  '--store-card-border-color': '#334155',
  '--store-header-background-color': '#111827',
  '--store-header-text-color': '#f9fafb',
  '--store-input-background-color': '#1e293b',
  '--store-input-border-color': '#64748b',
  '--store-product-title-color': '#f3f4f6',
  '--store-product-description-color': '#cbd5e1',
  '--store-product-price-color': '#93c5fd',
  '--store-link-color': '#93c5fd',
  '--store-icon-color': '#e5e7eb',
  '--store-nav-color': '#e5e7eb',
  '--store-breadcrumb-color': '#94a3b8',
  // Red 300: 7.8:1 on the dark cards, where the danger red is 3.2:1.
  '--store-error-color': '#fca5a5',
  // Emerald 300: 9:1 on the dark cards.
  '--store-pix-color': '#6ee7b7',
};

function declarations(variables: Record<string, string>): string {
  return Object.entries(variables)
    .map(([name, value]) => `${name}:${value}`)
    .join(';');
}

/**
 * The `:root` rules for a store's theme. Safe to inline: every value passed the settings schema.
 * With dark mode on, the dark scheme follows the device unless the shopper picked one
 * (`data-theme` on <html>).
 */
export function themeCss(settings: StoreSettings): string {
  const light = `:root{${declarations(themeVariables(settings))}}`;
  if (!settings.enable_dark_mode) return light;
  const dark = `${declarations(DARK_VARIABLES)};color-scheme:dark`;
  return (
    `${light}:root[data-theme=dark]{${dark}}` +
    `@media (prefers-color-scheme:dark){:root:not([data-theme=light]){${dark}}}`
  );
}
