export {
  clearSettingsStill,
  createSettingsStore,
  ensureSettingsRecord,
  makeStoreLive,
  readSettings,
  readStoreMode,
  saveSettings,
  type SettingsStore,
} from './settings.server';
export {
  COLOR_SCHEME_COOKIE,
  colorSchemeCookieHeader,
  readColorScheme,
} from './color-scheme.server';
