export { FONT_NAMES, FONTS, fontStack, type FontName } from './fonts';
export {
  defaultSettings,
  parseSettingsPatch,
  resolveSettings,
  settingsSchema,
  type SettingKey,
  type SettingsErrors,
  type StoreSettings,
} from './settings';
export { themeCss, themeVariables } from './theme';
