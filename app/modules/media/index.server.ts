export {
  deleteMedia,
  mediaIdFor,
  prepareImages,
  readMediaFile,
  storeImages,
  type PrepareResult,
  type PreparedImage,
} from './images.server';
