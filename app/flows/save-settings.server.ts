import type { Db } from '~/db/database.server';
import type { ConnectionsStore } from '~/modules/connections/index.server';
import { MAX_IMAGE_BYTES } from '~/modules/media';
import {
  prepareFavicon,
  prepareImages,
  storeImages,
  type PreparedImage,
} from '~/modules/media/index.server';
import type { PaymentProvider } from '~/modules/payments';
import { integrationStatus, type SecretsSet } from '~/modules/payments/index.server';
import type { SettingKey } from '~/modules/settings';
import {
  BRAND_UPLOADS,
  type BrandUploadName,
  type BrandUploads,
  type SettingsFormData,
} from '~/modules/settings/index.admin';
import {
  saveSettingsForm,
  settingsBaseline,
  type SaveSettingsFormResult,
} from '~/modules/settings/index.admin.server';
import { saveSettings, type SettingsStore } from '~/modules/settings/index.server';

/**
 * The settings screen: the settings in force, the baseline a save is checked against, and which
 * integrations are on (yes or no only: the secrets themselves never leave the server).
 */
export async function settingsScreen(scope: {
  settings: Pick<SettingsStore, 'get'>;
  connections: Pick<ConnectionsStore, 'get'>;
  payments(): Promise<PaymentProvider | null>;
  secretsSet: SecretsSet;
}) {
  const [settings, connections, payments] = await Promise.all([
    scope.settings.get(),
    scope.connections.get(),
    scope.payments(),
  ]);
  return {
    settings,
    baseline: settingsBaseline(settings),
    integrations: integrationStatus(scope.secretsSet, payments, settings, connections.sources),
  };
}

/** The files the settings form may send: one image per brand upload, as product photos. */
export const BRAND_UPLOAD_FILES = {
  maxFileBytes: MAX_IMAGE_BYTES,
  maxFiles: Object.keys(BRAND_UPLOADS).length,
};

/**
 * Saves the settings form with the logo, favicon and banner uploaded with it (ADR 020's uploads,
 * as product photos): each file is checked and converted first (no transaction held meanwhile),
 * then its images and the settings pointing at them are written in one transaction, or neither.
 * An upload replaces the address typed beside it. A refused file answers with its field's error.
 */
export async function saveSettingsWithUploads(
  db: Db,
  store: Pick<SettingsStore, 'get' | 'forget'>,
  form: SettingsFormData & BrandUploads,
): Promise<SaveSettingsFormResult> {
  const settings: Record<string, unknown> = {};
  const uploaded: Partial<Record<SettingKey, string>> = {};
  const images: PreparedImage[] = [];
  for (const [key, value] of Object.entries(form)) {
    if (!Object.hasOwn(BRAND_UPLOADS, key)) settings[key] = value;
  }
  for (const name of Object.keys(BRAND_UPLOADS) as BrandUploadName[]) {
    const file = form[name];
    if (!file) continue;
    const prepared =
      name === 'favicon_upload' ? await prepareFavicon(db, file) : await prepareImages(db, [file]);
    if (!prepared.ok) return { success: false, errors: { [name]: prepared.error } };
    const [image] = prepared.images;
    if (!image) continue;
    images.push(image);
    uploaded[BRAND_UPLOADS[name]] = image.url;
  }
  // Read before the transaction: the embedded database has one connection, which it holds.
  const current = await store.get();
  const result = await db.transaction(async (tx) => {
    const saved = await saveSettingsForm(
      { get: async () => current, save: (input) => saveSettings(tx, input) },
      { ...(settings as SettingsFormData), ...(uploaded as SettingsFormData) },
    );
    // A refused save wrote nothing, and its images are not kept either.
    if (saved.success) await storeImages(tx, images);
    return saved;
  });
  // This instance's next request may come before the change notification does.
  if (result.success) store.forget();
  return result;
}
