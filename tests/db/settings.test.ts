import { eq, sql } from 'drizzle-orm';
import { afterEach, expect, it, vi } from 'vitest';

import { storeSettings } from '~/db/schema';
import {
  ensureSettingsRecord,
  readSettings,
  saveSettings,
  type SettingsStore,
} from '~/modules/settings/index.server';

import { describeDb, openSettingsStore } from '../support/db';

describeDb('settings', ({ database, db }) => {
  let store: SettingsStore | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });

  it('read as the defaults when nothing is stored', async () => {
    expect((await readSettings(db())).store_name).toBe('TechStore');
    await ensureSettingsRecord(db());
    expect((await readSettings(db())).primary_color).toBe('#3b82f6');
  });

  it('store only the fields that were changed, keeping earlier changes', async () => {
    await saveSettings(db(), { store_name: 'Loja da Ana' });
    const result = await saveSettings(db(), { primary_color: '#FF0000' });

    expect(result).toMatchObject({
      success: true,
      settings: { store_name: 'Loja da Ana', primary_color: '#ff0000', secondary_color: '#10b981' },
    });
    const [row] = await db().select().from(storeSettings);
    expect(row?.values).toEqual({ store_name: 'Loja da Ana', primary_color: '#ff0000' });
  });

  it('keep both of two changes saved at the same moment', async () => {
    await ensureSettingsRecord(db());
    const saves = ['#111111', '#222222', '#333333'].map((color, index) =>
      saveSettings(db(), { [['primary_color', 'secondary_color', 'accent_color'][index]!]: color }),
    );
    await Promise.all(saves);
    expect(await readSettings(db())).toMatchObject({
      primary_color: '#111111',
      secondary_color: '#222222',
      accent_color: '#333333',
    });
  });

  it('refuse bad values with a message per field and write nothing', async () => {
    await saveSettings(db(), { store_name: 'Loja da Ana' });
    const result = await saveSettings(db(), { store_name: 'Outra', primary_color: 'red' });

    expect(result).toEqual({
      success: false,
      errors: { primary_color: expect.stringContaining('Cor inválida') },
    });
    expect((await readSettings(db())).store_name).toBe('Loja da Ana');
  });

  it('survive a value broken by hand in the database', async () => {
    await db()
      .insert(storeSettings)
      .values({ id: 1, values: { primary_color: 'url(javascript:alert(1))', store_name: 'Loja' } });
    const settings = await readSettings(db());
    expect(settings.primary_color).toBe('#3b82f6');
    expect(settings.store_name).toBe('Loja');
  });

  it('are cached, and the cache drops at once when the row changes, whoever changes it', async () => {
    await ensureSettingsRecord(db());
    store = await openSettingsStore(database());
    expect((await store.get()).primary_color).toBe('#3b82f6');

    // Another instance, or someone at psql, changes the colour behind this store's back.
    await db()
      .update(storeSettings)
      .set({ values: sql`jsonb_build_object('primary_color', '#123456')` })
      .where(eq(storeSettings.id, 1));

    await vi.waitFor(async () => expect((await store!.get()).primary_color).toBe('#123456'), {
      timeout: 5_000,
      interval: 20,
    });
  });

  it('are served from the cache while nothing changes', async () => {
    await ensureSettingsRecord(db());
    store = await openSettingsStore(database());
    const first = await store.get();
    expect(await store.get()).toBe(first);
  });

  it('fall back to the defaults while the database cannot answer, without caching that', async () => {
    await saveSettings(db(), { store_name: 'Loja da Ana' });
    store = await openSettingsStore(database());
    await db().execute(sql`alter table store_settings rename to store_settings_away`);
    try {
      expect((await store.get()).store_name).toBe('TechStore');
    } finally {
      await db().execute(sql`alter table store_settings_away rename to store_settings`);
    }
    expect((await store.get()).store_name).toBe('Loja da Ana');
  });

  it('are fresh right after a save through the store', async () => {
    store = await openSettingsStore(database());
    await store.get();
    const result = await store.save({ store_name: 'Nova Loja' });
    expect(result.success).toBe(true);
    expect((await store.get()).store_name).toBe('Nova Loja');
  });
});
