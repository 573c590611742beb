// The admin's server door: saving the settings form (ADR 021).
export {
  saveSettingsForm,
  settingsBaseline,
  type SaveSettingsFormResult,
} from './admin-form.server';
export { goLiveFormSchema } from './admin-actions.server';
