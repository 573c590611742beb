export { fallbackFamily, FONT_NAMES, FONTS, type FontName } from './fonts';
export { defaultSettings, type SettingKey, type StoreSettings } from './settings';
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
