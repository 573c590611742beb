import type { StoreSettings } from '~/modules/settings';

import { createMelhorEnvio } from './melhorenvio.server';
import { createMelhorEnvioLabels, type MelhorEnvioLabels } from './melhorenvio-labels.server';
import { createShippingQuoter, type ShippingQuoter } from './quotes.server';

/** How the store reaches its Melhor Envio account. */
export interface CarrierAccess {
  /** MELHOR_ENVIO_API_URL: the API's base, version included. */
  apiUrl: string;
  /** The account's token, from the connections in force. */
  token: string;
  /** MELHOR_ENVIO_USER_AGENT; unset, the store's name and e-mail, read on each call. */
  userAgent?: string;
}

type IdentitySettings = () => Promise<Pick<StoreSettings, 'store_name' | 'contact_email'>>;

/** Quotes through Melhor Envio: the store's carrier integration. */
export function createCarrierQuoter(
  access: CarrierAccess,
  settings: IdentitySettings,
): ShippingQuoter {
  return createShippingQuoter(
    createMelhorEnvio({
      apiUrl: access.apiUrl,
      token: access.token,
      userAgent: async () => access.userAgent ?? storeUserAgent(await settings()),
    }),
  );
}

/** The carrier's label calls ('Gerar etiqueta'). */
export function createCarrierLabels(
  access: CarrierAccess,
  settings: IdentitySettings,
): MelhorEnvioLabels {
  return createMelhorEnvioLabels({
    apiUrl: access.apiUrl,
    token: access.token,
    userAgent: async () => access.userAgent ?? storeUserAgent(await settings()),
  });
}

/** 'TechStore (contato@loja.com.br)', as Melhor Envio asks an application to name itself. */
export function storeUserAgent(settings: Pick<StoreSettings, 'store_name' | 'contact_email'>) {
  // A header value takes no line breaks nor characters outside Latin-1.
  const name = settings.store_name.replace(/[^\x20-\x7e\xa0-\xff]/g, '').trim() || 'Vitrine';
  return settings.contact_email ? `${name} (${settings.contact_email})` : name;
}
