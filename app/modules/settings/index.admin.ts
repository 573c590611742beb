// The admin's door: the settings form and its tabs, which no shopper's page needs (ADR 021).
export {
  DERIVED_COLOR_HINT,
  fieldMaxLength,
  PINNED_FIELDS,
  previewSettings,
  SETTINGS_FORM_FIELDS,
  SETTINGS_TABS,
  settingsFormSchema,
  settingsFormValues,
  settingsTabFrom,
  tabOfField,
  type FieldSpec,
  type GroupPanel,
  type SettingsFormData,
  type SettingsTab,
  type SettingsTabId,
} from './admin-form';
