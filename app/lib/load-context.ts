import type { Db } from '~/db/database.server';
import type { SettingsStore } from '~/modules/settings/index.server';

// What every loader and action receives from the server (server/app.ts builds it).
declare module 'react-router' {
  interface AppLoadContext {
    db: Db;
    settings: SettingsStore;
    /** Per-request nonce that the Content-Security-Policy allows inline scripts with. */
    nonce: string;
  }
}
