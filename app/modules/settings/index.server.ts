export {
  clearSettingsStill,
  createSettingsStore,
  ensureSettingsRecord,
  makeStoreLive,
  readSettings,
  readStoreMode,
  saveSettings,
  type SaveSettingsResult,
  type SettingsStore,
} from './settings.server';
export {
  COLOR_SCHEME_COOKIE,
  colorSchemeCookieHeader,
  readColorScheme,
  type ColorScheme,
} from './color-scheme.server';
export {
  changedSettings,
  saveSettingsForm,
  settingsBaseline,
  type SaveSettingsFormResult,
} from './admin-form.server';
export { integrationStatus } from './integrations.server';
export { goLiveFormSchema } from './admin-actions.server';
