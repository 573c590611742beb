export {
  createSettingsStore,
  ensureSettingsRecord,
  readSettings,
  saveSettings,
  type SaveSettingsResult,
  type SettingsStore,
} from './settings.server';
export { colorSchemeCookieHeader, readColorScheme, type ColorScheme } from './color-scheme.server';
