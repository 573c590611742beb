export { fallbackFamily, FONT_NAMES, FONTS, type FontName } from './fonts';
export { defaultSettings, type SettingKey, type StoreSettings } from './settings';
export { STOREFRONT_SETTING_KEYS, storefrontSettings, type StorefrontSettings } from './storefront';
export { DEMO_NOTICE, type StoreMode } from './mode';
export { themeCss, themeVariables } from './theme';
export {
  contrastRatio,
  contrastWarnings,
  DERIVED_COLOR_KEYS,
  derivedColors,
  formatRatio,
  isDerivedColor,
  MIN_CONTRAST,
  themeColors,
  type ContrastWarning,
} from './colors';
