export { FEED_FILES, type FeedFile, productFeedCache, type ServedFeed } from './cache.server';
export {
  META_COLUMNS,
  feedPrice,
  googleFeedXml,
  metaFeedCsv,
  type FeedStore,
} from './render.server';
