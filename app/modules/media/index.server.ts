export {
  deleteMedia,
  prepareFavicon,
  prepareImages,
  readMediaFile,
  storeImages,
  type PreparedImage,
} from './images.server';
