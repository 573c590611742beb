/** What one upload may hold, shown in the admin form and checked by the server. */
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
export const MAX_IMAGES_PER_UPLOAD = 10;

export const MEDIA_MESSAGES = {
  notAnImage: 'Envie imagens JPG, PNG, WebP ou GIF.',
  tooBig: 'Cada imagem pode ter no máximo 8 MB.',
  tooMany: `Envie no máximo ${MAX_IMAGES_PER_UPLOAD} imagens por vez.`,
} as const;
