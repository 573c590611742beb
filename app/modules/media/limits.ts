/** What one upload may hold, shown in the admin form and checked by the server. */
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
export const MAX_IMAGES_PER_UPLOAD = 10;

/*
 * Checked in each image's header before a pixel is decoded. A few hundred bytes of PNG can claim
 * 10 × 9,999,999 pixels, which took 12 s and 285 MB to turn down once decoded; a phone photo is
 * 12 to 50 megapixels, about 4:3, and never wider than 8,200 px.
 */
/** The longest side, in pixels. */
export const MAX_IMAGE_SIDE = 10_000;
/** The longest side over the shortest: 10 allows a 1:10 strip, not a ribbon. */
export const MAX_IMAGE_RATIO = 10;
/** Pixels in all; also sharp's `limitInputPixels`, a second wall should a header mislead. */
export const MAX_IMAGE_PIXELS = 50_000_000;

const number = (value: number) => value.toLocaleString('pt-BR');

export const MEDIA_MESSAGES = {
  notAnImage: 'Envie imagens JPG, PNG, WebP ou GIF.',
  tooBig: 'Cada imagem pode ter no máximo 8 MB.',
  tooMany: `Envie no máximo ${MAX_IMAGES_PER_UPLOAD} imagens por vez.`,
  /** `name` is the file's name, already quoted. */
  sideTooLong: (name: string, width: number, height: number) =>
    `A imagem ${name} tem ${number(width)} × ${number(height)} px: cada lado pode ter no máximo ${number(MAX_IMAGE_SIDE)} px.`,
  tooNarrow: (name: string, width: number, height: number) =>
    `A imagem ${name} tem ${number(width)} × ${number(height)} px: o lado maior pode ter no máximo ${MAX_IMAGE_RATIO} vezes o menor.`,
  tooManyPixels: (name: string, width: number, height: number) =>
    `A imagem ${name} tem ${number(width)} × ${number(height)} px: o máximo é ${number(MAX_IMAGE_PIXELS / 1_000_000)} megapixels.`,
} as const;
