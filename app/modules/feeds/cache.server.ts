import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

import type { ChangeFeed } from '~/db/changes.server';

const gzipAsync = promisify(gzip);

/** The feeds the store publishes under /feeds/, with their content types. */
export const FEED_FILES = {
  'google.xml': 'application/xml; charset=utf-8',
  'meta.csv': 'text/csv; charset=utf-8',
} as const;

export type FeedFile = keyof typeof FEED_FILES;

/** A feed ready to send: its bytes, the same gzipped (made once), and their tag. */
export interface ServedFeed {
  body: Uint8Array<ArrayBuffer>;
  gzipped: Uint8Array<ArrayBuffer>;
  etag: string;
  type: string;
}

interface Kept {
  version: number;
  feed: Promise<ServedFeed>;
}

// One per change feed (an app; tests run several in a process). Per process is only a cache:
// every instance drops its copy on the database's change notifications, as the page cache does.
const caches = new WeakMap<ChangeFeed, Map<string, Kept>>();

/**
 * A feed built once per catalogue version and instance: requests while it is built share the
 * build, and a change (a price, a stock, a setting) drops it. While notifications are not
 * flowing, every request builds its own.
 */
export function productFeedCache(changes: ChangeFeed) {
  let kept = caches.get(changes);
  if (!kept) {
    kept = new Map();
    caches.set(changes, kept);
  }
  const entries = kept;
  return {
    serve(key: string, file: FeedFile, build: () => Promise<string>): Promise<ServedFeed> {
      const version = changes.version();
      const live = changes.live();
      const entry = entries.get(key);
      if (live && entry?.version === version) return entry.feed;
      const feed = build().then(async (text) => {
        const body = new TextEncoder().encode(text);
        const gzipped = await gzipAsync(body, { level: 6 });
        return {
          body,
          gzipped: new Uint8Array(
            gzipped.buffer,
            gzipped.byteOffset,
            gzipped.byteLength,
          ) as Uint8Array<ArrayBuffer>,
          etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
          type: FEED_FILES[file],
        };
      });
      if (live) {
        entries.set(key, { version, feed });
        // Kept under the version from before the build read anything: a change while it read
        // makes the next request build again. A failed build is not kept.
        feed.catch(() => {
          if (entries.get(key)?.feed === feed) entries.delete(key);
        });
      }
      return feed;
    },
  };
}
