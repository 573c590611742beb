import type { StoreSettings } from '~/modules/settings';

import { PAYMENT_METHOD_SWITCHES, type AcceptedMethod } from './types';

/**
 * The settings as the storefront must honour them: a payment switch stays on only for a method
 * the provider takes, so every text built from the switches (the footer, the FAQ, 'Sobre',
 * 'ou 12x… sem juros') promises only what checkout can take. An advertised offer binds the store
 * (Código de Defesa do Consumidor, art. 30).
 */
export function narrowPaymentSwitches<Settings extends StoreSettings>(
  settings: Settings,
  accepts: readonly AcceptedMethod[],
): Settings {
  const narrowed = { ...settings };
  for (const [method, key] of Object.entries(PAYMENT_METHOD_SWITCHES)) {
    if (!accepts.includes(method as AcceptedMethod)) narrowed[key] = false;
  }
  return narrowed;
}
