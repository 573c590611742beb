export {
  createSettingsStore,
  ensureSettingsRecord,
  readSettings,
  saveSettings,
  SETTINGS_CHANNEL,
  type SaveSettingsResult,
  type SettingsStore,
} from './settings.server';
