import sharp from 'sharp';
import { describe, expect, it } from 'vitest';

import { sharePicture } from './share-picture.server';

const png = (background: string) =>
  sharp({ create: { width: 40, height: 30, channels: 3, background } })
    .png()
    .toBuffer()
    .then((buffer) => new Uint8Array(buffer));

describe('sharePicture', () => {
  it('draws a 1200×630 JPEG once per source content', async () => {
    const blue = await png('#0a78c8');
    const first = sharePicture(blue);
    expect(sharePicture(new Uint8Array(blue))).toBe(first);
    expect(await sharp(await first).metadata()).toMatchObject({
      format: 'jpeg',
      width: 1200,
      height: 630,
    });
    // Other content (a file replaced under the same name) is drawn afresh.
    expect(sharePicture(await png('#c80a0a'))).not.toBe(first);
  });

  it('keeps no failure', async () => {
    const junk = new TextEncoder().encode('not an image');
    const failed = sharePicture(junk);
    await expect(failed).rejects.toThrow();
    const again = sharePicture(junk);
    expect(again).not.toBe(failed);
    await expect(again).rejects.toThrow();
  });
});
