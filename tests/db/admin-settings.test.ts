import { afterEach, expect, it } from 'vitest';

import { storeSettings } from '~/db/schema';
import { parseFormData } from '~/lib/form';
import {
  contrastWarnings,
  defaultSettings,
  themeColors,
  type StoreSettings,
} from '~/modules/settings';
import {
  SETTINGS_FORM_FIELDS,
  settingsFormSchema,
  settingsFormValues,
  type SettingsFormData,
} from '~/modules/settings/index.admin';
import { saveSettingsForm, settingsBaseline } from '~/modules/settings/index.admin.server';
import type { SettingsStore } from '~/modules/settings/index.server';

import { describeDb, openSettingsStore } from '../support/db';

/** The settings form as a page loaded with `shown` sends it, with what staff typed. */
function submitted(
  shown: StoreSettings,
  typed: Record<string, string>,
  baseline: string | undefined = settingsBaseline(shown),
): SettingsFormData {
  const values = { ...settingsFormValues(shown), ...typed };
  const form = new FormData();
  for (const spec of SETTINGS_FORM_FIELDS) {
    const value = values[spec.key] ?? '';
    if (spec.kind !== 'checkbox' || value !== '') form.append(spec.key, value);
  }
  if (baseline !== undefined) form.append('_baseline', baseline);
  const parsed = parseFormData(form, settingsFormSchema);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.fieldErrors));
  return parsed.data;
}

describeDb('the admin settings form', ({ database, db }) => {
  let store: SettingsStore | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });
  const open = async () => (store = await openSettingsStore(database()));
  const stored = async () => (await db().select().from(storeSettings))[0]?.values;

  it('stores only the fields staff changed, so the others keep following their defaults', async () => {
    const settings = await open();
    const result = await saveSettingsForm(
      settings,
      submitted(defaultSettings(), {
        store_name: 'Loja da Ana',
        default_shipping_cost_cents: '15,90',
        enable_chat: 'on',
      }),
    );

    expect(result).toMatchObject({
      success: true,
      changed: ['store_name', 'enable_chat', 'default_shipping_cost_cents'],
    });
    expect(await stored()).toEqual({
      store_name: 'Loja da Ana',
      enable_chat: true,
      default_shipping_cost_cents: 1590,
    });
    expect(await settings.get()).toMatchObject({
      store_name: 'Loja da Ana',
      primary_color: '#3b82f6',
      default_shipping_cost_cents: 1590,
    });
  });

  it("keeps another admin's change that this page never showed", async () => {
    const settings = await open();
    const pageOfAna = defaultSettings();
    const pageOfBia = defaultSettings();
    await saveSettingsForm(settings, submitted(pageOfBia, { primary_color: '#FF0000' }));
    await saveSettingsForm(settings, submitted(pageOfAna, { store_name: 'Loja da Ana' }));

    expect(await settings.get()).toMatchObject({
      store_name: 'Loja da Ana',
      primary_color: '#ff0000',
    });
  });

  it('without a readable baseline, compares with the settings as they are now', async () => {
    const settings = await open();
    await saveSettingsForm(settings, submitted(defaultSettings(), { primary_color: '#ff0000' }));
    for (const baseline of [undefined, 'not json', '[1,2]']) {
      const result = await saveSettingsForm(
        settings,
        submitted(await settings.get(), { store_slogan: 'Sempre perto' }, baseline),
      );
      expect(result).toMatchObject({ success: true });
      expect(await stored()).toEqual({ primary_color: '#ff0000', store_slogan: 'Sempre perto' });
    }
  });

  it('writes nothing when nothing changed', async () => {
    const settings = await open();
    const result = await saveSettingsForm(settings, submitted(defaultSettings(), {}));
    expect(result).toMatchObject({ success: true, changed: [] });
    expect(await stored()).toBeUndefined();
  });

  it('brings a cleared text back to its default', async () => {
    const settings = await open();
    await saveSettingsForm(settings, submitted(defaultSettings(), { store_name: 'Loja da Ana' }));
    await saveSettingsForm(settings, submitted(await settings.get(), { store_name: '' }));
    expect((await settings.get()).store_name).toBe('TechStore');
  });

  it('lets the colours left empty follow the primary, and a chosen one win until it is cleared', async () => {
    const settings = await open();
    await saveSettingsForm(
      settings,
      submitted(defaultSettings(), { primary_color: '#A21CAF', link_color: '#123456' }),
    );
    expect(await stored()).toEqual({ primary_color: '#a21caf', link_color: '#123456' });
    let page = themeColors(await settings.get());
    expect(page.link_color).toBe('#123456');
    // 'Comprar agora' and the prices were never chosen: they follow the new primary colour.
    expect(page.button_success_color).not.toBe(themeColors(defaultSettings()).button_success_color);
    expect(page.product_price_color).toBe('#a21caf');

    // A new primary colour moves everything left empty, and nothing chosen.
    await saveSettingsForm(settings, submitted(await settings.get(), { primary_color: '#15803d' }));
    page = themeColors(await settings.get());
    expect(page.link_color).toBe('#123456');
    expect(page.product_price_color).toBe('#15803d');
    expect(page.button_primary_color).toBe('#15803d');

    // Cleared, the link colour follows the primary again.
    await saveSettingsForm(settings, submitted(await settings.get(), { link_color: '' }));
    expect((await settings.get()).link_color).toBe('');
    expect(themeColors(await settings.get()).link_color).toBe('#15803d');
    expect(contrastWarnings(await settings.get())).toEqual([]);
  });
});
