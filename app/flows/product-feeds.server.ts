import type { AppLoadContext } from 'react-router';

import { listFeedProducts } from '~/modules/catalog/index.server';
import {
  FEED_FILES,
  googleFeedXml,
  metaFeedCsv,
  productFeedCache,
  type FeedFile,
  type FeedStore,
  type ServedFeed,
} from '~/modules/feeds/index.server';
import { shippingCents } from '~/modules/pricing';

/** Whether `file` names one of the feeds under /feeds/. */
export function isFeedFile(file: string | undefined): file is FeedFile {
  return file !== undefined && Object.hasOwn(FEED_FILES, file);
}

/**
 * /feeds/google.xml or /feeds/meta.csv: the whole catalogue for Google Merchant Center and
 * Meta's catalogue, kept until the catalogue or the settings change (issue 39).
 */
export function productFeed(context: AppLoadContext, file: FeedFile): Promise<ServedFeed> {
  return productFeedCache(context.changes).serve(`${file} ${context.origin}`, file, async () => {
    const [settings, carrier, catalogue] = await Promise.all([
      context.settings.get(),
      context.shipping(),
      listFeedProducts(context.readDb),
    ]);
    const store: FeedStore = {
      origin: context.origin,
      name: settings.store_name,
      description: settings.store_description,
      // The store's own rule is the price an item ships for; carriers quote by address, which
      // a feed cannot say (the merchant sets shipping in each channel's console then).
      shippingCents: carrier ? null : (priceCents) => shippingCents(priceCents, settings),
    };
    return file === 'google.xml' ? googleFeedXml(catalogue, store) : metaFeedCsv(catalogue, store);
  });
}
