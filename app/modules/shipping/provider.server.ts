import type { Env } from '~/lib/env.server';
import type { StoreSettings } from '~/modules/settings';

import { createMelhorEnvio } from './melhorenvio.server';
import { createMelhorEnvioLabels, type MelhorEnvioLabels } from './melhorenvio-labels.server';
import { createShippingQuoter, type ShippingQuoter } from './quotes.server';

/** The store's carrier integration from its environment, or null: its own rule prices shipping. */
export function createShippingQuoterFromEnv(
  env: Pick<
    Env,
    'SHIPPING_PROVIDER' | 'MELHOR_ENVIO_TOKEN' | 'MELHOR_ENVIO_API_URL' | 'MELHOR_ENVIO_USER_AGENT'
  >,
  settings: () => Promise<Pick<StoreSettings, 'store_name' | 'contact_email'>>,
): ShippingQuoter | null {
  if (env.SHIPPING_PROVIDER !== 'melhorenvio' || !env.MELHOR_ENVIO_TOKEN) return null;
  const fixed = env.MELHOR_ENVIO_USER_AGENT;
  return createShippingQuoter(
    createMelhorEnvio({
      apiUrl: env.MELHOR_ENVIO_API_URL,
      token: env.MELHOR_ENVIO_TOKEN,
      userAgent: async () => fixed ?? storeUserAgent(await settings()),
    }),
  );
}

/** The carrier's label calls ('Gerar etiqueta'), or null without a carrier integration. */
export function createShippingLabelsFromEnv(
  env: Pick<
    Env,
    'SHIPPING_PROVIDER' | 'MELHOR_ENVIO_TOKEN' | 'MELHOR_ENVIO_API_URL' | 'MELHOR_ENVIO_USER_AGENT'
  >,
  settings: () => Promise<Pick<StoreSettings, 'store_name' | 'contact_email'>>,
): MelhorEnvioLabels | null {
  if (env.SHIPPING_PROVIDER !== 'melhorenvio' || !env.MELHOR_ENVIO_TOKEN) return null;
  const fixed = env.MELHOR_ENVIO_USER_AGENT;
  return createMelhorEnvioLabels({
    apiUrl: env.MELHOR_ENVIO_API_URL,
    token: env.MELHOR_ENVIO_TOKEN,
    userAgent: async () => fixed ?? storeUserAgent(await settings()),
  });
}

/** 'TechStore (contato@loja.com.br)', as Melhor Envio asks an application to name itself. */
export function storeUserAgent(settings: Pick<StoreSettings, 'store_name' | 'contact_email'>) {
  // A header value takes no line breaks nor characters outside Latin-1.
  const name = settings.store_name.replace(/[^\x20-\x7e\xa0-\xff]/g, '').trim() || 'Vitrine';
  return settings.contact_email ? `${name} (${settings.contact_email})` : name;
}
