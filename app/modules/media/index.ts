export {
  MAX_IMAGE_BYTES,
  MAX_IMAGE_PIXELS,
  MAX_IMAGE_RATIO,
  MAX_IMAGE_SIDE,
  MAX_IMAGES_PER_UPLOAD,
  MEDIA_MESSAGES,
} from './limits';
export {
  MEDIA_WIDTHS,
  mediaPath,
  mediaSrcSet,
  mediaWidths,
  parseMediaFileName,
  parseMediaPath,
} from './paths';
