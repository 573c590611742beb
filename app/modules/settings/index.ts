export { fallbackFamily, FONT_NAMES, FONTS, type FontName } from './fonts';
export { defaultSettings, type StoreSettings } from './settings';
export { DEMO_NOTICE, type StoreMode } from './mode';
export { themeCss, themeVariables } from './theme';
