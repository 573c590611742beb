import sharp from 'sharp';
import { describe, expect, it } from 'vitest';

import { media, mediaVariants } from '~/db/schema';
import { mediaSrcSet, parseMediaFileName } from '~/modules/media';
import { prepareImages, readMediaFile, storeImages } from '~/modules/media/index.server';

import { describeDb } from '../support/db';
import { blackPng } from '../support/images';

const ID = '0190a6b2-7c1e-8d3f-9a4b-5c6d7e8f9a0b';

describe('media addresses', () => {
  it('gives uploaded images a srcset of every stored width, and others none', () => {
    expect(mediaSrcSet(`/media/${ID}-1280.webp`)).toBe(
      `/media/${ID}-320.webp 320w, /media/${ID}-640.webp 640w, /media/${ID}-1280.webp 1280w`,
    );
    expect(mediaSrcSet(`/media/${ID}-1000.webp`)).toBe(
      `/media/${ID}-320.webp 320w, /media/${ID}-640.webp 640w, /media/${ID}-1000.webp 1000w`,
    );
    expect(mediaSrcSet(`/media/${ID}-200.webp`)).toBe(`/media/${ID}-200.webp 200w`);
    expect(mediaSrcSet('https://cdn.example/a.jpg')).toBeUndefined();
    expect(mediaSrcSet('/sample/mouse-sem-fio-1.svg')).toBeUndefined();
    expect(mediaSrcSet(`/media/${ID}-2000.webp`)).toBeUndefined();
  });

  it('reads only well-formed file names', () => {
    expect(parseMediaFileName(`${ID}-640.webp`)).toEqual({ id: ID, width: 640, format: 'webp' });
    // A favicon upload is a PNG; it has one size, so no srcset.
    expect(parseMediaFileName(`${ID}-64.png`)).toEqual({ id: ID, width: 64, format: 'png' });
    expect(mediaSrcSet(`/media/${ID}-64.png`)).toBeUndefined();
    for (const bad of [
      `${ID}-640.jpg`,
      `${ID}-640.png.webp.png`,
      `${ID}-0640.webp`,
      `${ID}.webp`,
      'x-640.webp',
      `${ID}-99999.webp`,
    ]) {
      expect(parseMediaFileName(bad)).toBeNull();
    }
  });
});

async function image(
  width: number,
  height: number,
  format: 'png' | 'jpeg' | 'gif' | 'webp' = 'png',
  orientation?: number,
): Promise<File> {
  let pipeline = sharp({
    create: { width, height, channels: 3, background: { r: 10, g: 120, b: 200 } },
  }).toFormat(format);
  if (orientation) pipeline = pipeline.withMetadata({ orientation });
  const bytes = await pipeline.toBuffer();
  return new File([new Uint8Array(bytes)], `foto.${format}`, { type: `image/${format}` });
}

async function webpSize(bytes: Uint8Array) {
  const metadata = await sharp(bytes).metadata();
  return { format: metadata.format, width: metadata.width, height: metadata.height };
}

describeDb('uploaded images', ({ db }) => {
  it('stores WebP files at 320, 640 and 1280 px, and serves each one', async () => {
    const prepared = await prepareImages(db(), [await image(1600, 1200)]);
    if (!prepared.ok) throw new Error(prepared.error);
    const [upload] = prepared.images;
    expect(upload!.url).toBe(`/media/${upload!.id}-1280.webp`);
    await storeImages(db(), prepared.images);

    expect(await db().select().from(media)).toMatchObject([
      { id: upload!.id, originalName: 'foto.png', width: 1600, height: 1200 },
    ]);
    const variants = await db().select().from(mediaVariants).orderBy(mediaVariants.width);
    expect(variants.map((variant) => [variant.width, variant.contentType])).toEqual([
      [320, 'image/webp'],
      [640, 'image/webp'],
      [1280, 'image/webp'],
    ]);
    const served = await readMediaFile(db(), upload!.id, 640);
    expect(served!.contentType).toBe('image/webp');
    expect(await webpSize(served!.bytes)).toEqual({ format: 'webp', width: 640, height: 480 });
    expect(await readMediaFile(db(), upload!.id, 1000)).toBeNull();
    expect(await readMediaFile(db(), 'not-a-uuid', 640)).toBeNull();
  });

  it('never enlarges: a narrower original keeps its own width as the largest', async () => {
    const prepared = await prepareImages(db(), [
      await image(1000, 500, 'jpeg'),
      await image(200, 100, 'gif'),
    ]);
    if (!prepared.ok) throw new Error(prepared.error);
    const [medium, small] = prepared.images;
    expect(medium!.files!.variants.map((variant) => variant.width)).toEqual([320, 640, 1000]);
    expect(medium!.url).toMatch(/-1000\.webp$/);
    expect(small!.files!.variants.map((variant) => variant.width)).toEqual([200]);
    expect(await webpSize(small!.files!.variants[0]!.bytes)).toEqual({
      format: 'webp',
      width: 200,
      height: 100,
    });
  });

  it('turns a photo the way its EXIF orientation says', async () => {
    // Stored 300 wide and 100 high, to be shown rotated a quarter turn: 100 wide, 300 high.
    const prepared = await prepareImages(db(), [await image(300, 100, 'jpeg', 6)]);
    if (!prepared.ok) throw new Error(prepared.error);
    const files = prepared.images[0]!.files!;
    expect([files.width, files.height]).toEqual([100, 300]);
    expect(await webpSize(files.variants.at(-1)!.bytes)).toEqual({
      format: 'webp',
      width: 100,
      height: 300,
    });
  });

  it('stores the same bytes once and gives them the same address', async () => {
    const photo = await image(800, 600, 'webp');
    const first = await prepareImages(db(), [photo]);
    if (!first.ok) throw new Error(first.error);
    await storeImages(db(), first.images);
    const again = await prepareImages(db(), [photo]);
    if (!again.ok) throw new Error(again.error);
    expect(again.images[0]).toEqual({
      id: first.images[0]!.id,
      url: first.images[0]!.url,
      files: null,
    });
    await storeImages(db(), again.images);
    expect(await db().select().from(media)).toHaveLength(1);
  });

  it('refuses files that are not JPG, PNG, WebP, GIF or AVIF images, and too many or too big', async () => {
    const svg = new File(
      ['<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'],
      'logo.svg',
    );
    const text = new File(['não sou imagem'], 'notas.txt');
    const truncated = new File([(await image(400, 400, 'png')).slice(0, 200)], 'cortada.png');
    for (const [file, name] of [
      [svg, 'logo.svg'],
      [text, 'notas.txt'],
      [truncated, 'cortada.png'],
    ] as const) {
      expect(await prepareImages(db(), [file])).toEqual({
        ok: false,
        error: `O arquivo "${name}" não é uma imagem aceita. Envie imagens JPG, PNG, WebP ou GIF.`,
      });
    }
    const big = new File([new Uint8Array(8 * 1024 * 1024 + 1)], 'grande.jpg');
    expect(await prepareImages(db(), [big])).toEqual({
      ok: false,
      error: 'A imagem "grande.jpg" passa de 8 MB.',
    });
    const small = await image(10, 10);
    expect(
      await prepareImages(
        db(),
        Array.from({ length: 11 }, () => small),
      ),
    ).toEqual({
      ok: false,
      error: 'Envie no máximo 10 imagens por vez.',
    });
    expect(await db().select().from(media)).toHaveLength(0);
  });

  it('refuses from the header, before decoding, a side over 10,000 px, a strip past 1:10 or over 50 megapixels', async () => {
    const png = (width: number, height: number, name: string) =>
      new File([blackPng(width, height)], name, { type: 'image/png' });
    const refusals = [
      [
        png(10, 9_999_999, 'fita.png'),
        'A imagem "fita.png" tem 10 × 9.999.999 px: cada lado pode ter no máximo 10.000 px.',
      ],
      [
        png(10_001, 2_000, 'larga.png'),
        'A imagem "larga.png" tem 10.001 × 2.000 px: cada lado pode ter no máximo 10.000 px.',
      ],
      [
        png(100, 1_001, 'estreita.png'),
        'A imagem "estreita.png" tem 100 × 1.001 px: o lado maior pode ter no máximo 10 vezes o menor.',
      ],
      [
        png(8_000, 6_300, 'enorme.png'),
        'A imagem "enorme.png" tem 8.000 × 6.300 px: o máximo é 50 megapixels.',
      ],
    ] as const;
    for (const [file, error] of refusals) {
      // Listed after a good image: every header is read before any image is decoded.
      expect(await prepareImages(db(), [await image(50, 50), file])).toEqual({ ok: false, error });
    }
    const strip = await prepareImages(db(), [png(100, 1_000, 'faixa.png')]);
    if (!strip.ok) throw new Error(strip.error);
    expect(strip.images[0]!.files).toMatchObject({ width: 100, height: 1_000 });
    expect(await db().select().from(media)).toHaveLength(0);
  });
});
