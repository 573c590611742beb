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
export {
  fieldMaxLength,
  formValue,
  PINNED_FIELDS,
  previewSettings,
  SETTINGS_FORM_FIELDS,
  SETTINGS_TAB_IDS,
  SETTINGS_TABS,
  settingsFormSchema,
  settingsFormValues,
  settingsTabFrom,
  tabOfField,
  type FieldKind,
  type FieldSpec,
  type GroupPanel,
  type SettingsFormData,
  type SettingsGroup,
  type SettingsTab,
  type SettingsTabId,
} from './admin-form';
export type { IntegrationStatus } from './integrations';
