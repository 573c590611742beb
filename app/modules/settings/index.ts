export { fallbackFamily, FONT_NAMES, FONTS, fontStack, type FontName } from './fonts';
export {
  defaultSettings,
  parseSettingsPatch,
  resolveSettings,
  settingsSchema,
  type SettingKey,
  type SettingsErrors,
  type StoreSettings,
} from './settings';
export { DEMO_NOTICE, STORE_MODES, type StoreMode } from './mode';
export { themeCss, themeVariables } from './theme';
