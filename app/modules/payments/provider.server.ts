import type { Db } from '~/db/database.server';
import type { Env } from '~/lib/env.server';
import type { StoreSettings } from '~/modules/settings';

import { createGatewayProvider } from './gateway.server';
import { createPixProvider } from './pix.server';
import { createSandboxProvider } from './sandbox.server';
import type { PaymentProvider } from './types';

export interface PaymentProviderOptions {
  env: Pick<
    Env,
    | 'NODE_ENV'
    | 'PAYMENT_PROVIDER'
    | 'PAYMENT_GATEWAY_URL'
    | 'PAYMENT_GATEWAY_SECRET_KEY'
    | 'PUBLIC_URL'
  >;
  db: Db;
  settings: () => Promise<StoreSettings>;
}

/**
 * The provider PAYMENT_PROVIDER names. Unset, development and tests get the sandbox, while
 * production gets none (null: checkout says payments are not configured) so a real store never
 * takes pretend payments by accident.
 */
export function createPaymentProvider(options: PaymentProviderOptions): PaymentProvider | null {
  const { env } = options;
  const chosen = env.PAYMENT_PROVIDER ?? (env.NODE_ENV === 'production' ? null : 'sandbox');
  switch (chosen) {
    case 'sandbox':
      return createSandboxProvider({ db: options.db });
    case 'pix':
      return createPixProvider({ settings: options.settings });
    case 'gateway':
      // The environment check already demands all three; this keeps a hand-built Env honest too.
      if (!env.PAYMENT_GATEWAY_URL || !env.PAYMENT_GATEWAY_SECRET_KEY || !env.PUBLIC_URL) {
        return null;
      }
      return createGatewayProvider({
        baseUrl: env.PAYMENT_GATEWAY_URL,
        secretKey: env.PAYMENT_GATEWAY_SECRET_KEY,
        publicUrl: env.PUBLIC_URL,
      });
    case null:
      return null;
  }
}
