import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterEach, expect, it } from 'vitest';

import { media, mediaVariants, storeSettings } from '~/db/schema';
import { saveSettingsWithUploads } from '~/flows/save-settings.server';
import { parseMediaPath } from '~/modules/media';
import { readMediaFile } from '~/modules/media/index.server';
import { defaultSettings } from '~/modules/settings';
import { settingsBaseline } from '~/modules/settings/index.admin.server';
import type { SettingsStore } from '~/modules/settings/index.server';

import { describeDb, openSettingsStore } from '../support/db';
import { blackPng } from '../support/images';

async function picture(width: number, height: number, name = 'logo.png'): Promise<File> {
  const bytes = await sharp({
    create: { width, height, channels: 4, background: { r: 200, g: 30, b: 90, alpha: 1 } },
  })
    .png()
    .toBuffer();
  return new File([new Uint8Array(bytes)], name, { type: 'image/png' });
}

/** What the settings form sends when staff only chose files (every field as it was shown). */
function form(uploads: Record<string, File>) {
  return { _baseline: settingsBaseline(defaultSettings()), ...uploads };
}

describeDb('logo, favicon and banner uploaded in the settings', ({ database, db }) => {
  let store: SettingsStore | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });
  const open = async () => (store = await openSettingsStore(database()));

  it('stores each upload as product photos are, and points its setting at it', async () => {
    const settings = await open();
    const logo = await picture(800, 200);
    const result = await saveSettingsWithUploads(
      db(),
      settings,
      form({
        logo_upload: logo,
        favicon_upload: logo,
        banner_upload: await picture(1600, 600, 'banner.png'),
      }),
    );
    expect(result).toMatchObject({ success: true });
    const saved = await settings.get();
    const logoFile = parseMediaPath(saved.logo_url);
    const faviconFile = parseMediaPath(saved.favicon_url);
    const bannerFile = parseMediaPath(saved.banner_url);
    expect(logoFile).toMatchObject({ width: 800, format: 'webp' });
    expect(bannerFile).toMatchObject({ width: 1280, format: 'webp' });
    // The favicon is a square PNG, and another image than the logo it was made from.
    expect(faviconFile).toMatchObject({ width: 64, format: 'png' });
    expect(faviconFile!.id).not.toBe(logoFile!.id);
    const favicon = await readMediaFile(db(), faviconFile!.id, 64);
    expect(favicon?.contentType).toBe('image/png');
    expect(await sharp(favicon!.bytes).metadata()).toMatchObject({
      format: 'png',
      width: 64,
      height: 64,
    });
    const banner = await readMediaFile(db(), bannerFile!.id, 1280);
    expect(banner?.contentType).toBe('image/webp');
    // Only what changed is stored: the three addresses.
    const [row] = await db().select().from(storeSettings);
    expect(Object.keys(row!.values as object).sort()).toEqual([
      'banner_url',
      'favicon_url',
      'logo_url',
    ]);
  });

  it('stores a logo whose file name holds a NUL, under its name without it', async () => {
    const settings = await open();
    const result = await saveSettingsWithUploads(
      db(),
      settings,
      form({ logo_upload: await picture(400, 100, 'lo\u0000go\u001f.png') }),
    );
    expect(result).toMatchObject({ success: true });
    expect((await db().select().from(media)).map((row) => row.originalName)).toEqual(['logo.png']);
  });

  it('lets an upload replace the address typed beside it, and keeps the address option', async () => {
    const settings = await open();
    await saveSettingsWithUploads(db(), settings, {
      ...form({}),
      logo_url: 'https://cdn.example.com/logo.png',
    });
    expect((await settings.get()).logo_url).toBe('https://cdn.example.com/logo.png');
    await saveSettingsWithUploads(db(), settings, {
      ...form({ logo_upload: await picture(300, 100) }),
      logo_url: 'https://cdn.example.com/other.png',
    });
    expect((await settings.get()).logo_url).toMatch(/^\/media\/[0-9a-f-]{36}-300\.webp$/);
  });

  it('refuses what a product photo would refuse, with the file input’s error, and keeps nothing', async () => {
    const settings = await open();
    const cases = [
      [
        'favicon_upload',
        new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], 'icone.svg', {
          type: 'image/svg+xml',
        }),
        /"icone\.svg" não é uma imagem aceita/,
      ],
      ['logo_upload', new File(['GIF89a nonsense'], 'logo.gif'), /não é uma imagem aceita/],
      ['banner_upload', new File([blackPng(10, 9_999_999)], 'bomba.png'), /10\.000 px/],
    ] as const;
    for (const [name, file, message] of cases) {
      const result = await saveSettingsWithUploads(db(), settings, {
        ...form({ [name]: file }),
        store_name: 'Loja Nova',
      });
      expect(result.success).toBe(false);
      if (!result.success) expect(result.errors[name]).toMatch(message);
    }
    expect(await db().select().from(media)).toEqual([]);
    expect((await settings.get()).store_name).toBe('TechStore');
    expect(await db().select().from(storeSettings).where(eq(storeSettings.id, 1))).toEqual([]);
    expect(await db().select({ id: mediaVariants.mediaId }).from(mediaVariants)).toEqual([]);
  });
});
