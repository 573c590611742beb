import { createHash } from 'node:crypto';

import { SETTINGS_FORM_FIELDS, type SettingsFormData } from './admin-form';
import type { SettingKey, StoreSettings } from './settings';
import type { SaveSettingsResult, SettingsStore } from './settings.server';

// The settings form sends every field, but only what staff changed may be stored: a field left
// alone keeps following its default (settings.server.ts stores only values that were set), and
// a second admin's save must not put back the values the first one's page was loaded with.
// So the page carries a fingerprint of each value it showed, and a save keeps only the fields
// whose value differs from that fingerprint.

function fingerprint(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('base64url').slice(0, 12);
}

/** The fingerprints of the values a form is loaded with, for its hidden `_baseline` field. */
export function settingsBaseline(settings: StoreSettings): string {
  return JSON.stringify(
    Object.fromEntries(SETTINGS_FORM_FIELDS.map(({ key }) => [key, fingerprint(settings[key])])),
  );
}

function readBaseline(baseline: string | undefined): Record<string, string> | null {
  if (!baseline) return null;
  try {
    const parsed: unknown = JSON.parse(baseline);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
    return parsed as Record<string, string>;
  } catch {
    return null;
  }
}

/**
 * The fields of a submitted form that staff changed: those differing from what their page showed
 * (the baseline), or, without a readable baseline, from the current settings.
 */
function changedSettings(form: SettingsFormData, current: StoreSettings): Partial<StoreSettings> {
  const { _baseline, ...values } = form;
  const shown = readBaseline(_baseline);
  const changed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const before = shown?.[key] ?? fingerprint(current[key as SettingKey]);
    if (fingerprint(value) !== before) changed[key] = value;
  }
  return changed as Partial<StoreSettings>;
}

export type SaveSettingsFormResult = SaveSettingsResult & { changed?: SettingKey[] };

/** Saves what a submitted settings form changed (nothing at all when nothing changed). */
export async function saveSettingsForm(
  store: Pick<SettingsStore, 'get' | 'save'>,
  form: SettingsFormData,
): Promise<SaveSettingsFormResult> {
  const current = await store.get();
  const patch = changedSettings(form, current);
  const changed = Object.keys(patch) as SettingKey[];
  if (changed.length === 0) return { success: true, settings: current, changed };
  const result = await store.save(patch);
  return result.success ? { ...result, changed } : result;
}
