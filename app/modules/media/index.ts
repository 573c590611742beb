export { MAX_IMAGE_BYTES, MAX_IMAGES_PER_UPLOAD, MEDIA_MESSAGES } from './limits';
export { mediaSrcSet, parseMediaFileName, parseMediaPath } from './paths';
