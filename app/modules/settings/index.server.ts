export {
  createSettingsStore,
  ensureSettingsRecord,
  readSettings,
  saveSettings,
  type SaveSettingsResult,
  type SettingsStore,
} from './settings.server';
