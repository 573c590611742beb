export { deleteMedia, prepareImages, readMediaFile, storeImages } from './images.server';
