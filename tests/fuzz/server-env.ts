import { SAMPLE_COUPONS } from '~/flows/sample-store';

import { sampleProductPath } from '../support/sample';

/** /metrics's token: the fuzzer sends it, something like it, or nothing. */
export const FUZZ_METRICS_TOKEN = 'fuzz-metrics-token-0123456789';

export const FUZZ_MELHOR_ENVIO_TOKEN = 'fuzz-melhor-envio-token';

/** The Bling application's credentials the fuzzed store connects with (its fake checks them). */
export const FUZZ_BLING = { clientId: 'fuzz-bling-client', clientSecret: 'fuzz-bling-secret' };

/** The secrets key, so the fuzzed store's Bling tokens can be sealed before it starts. */
export const FUZZ_SECRETS_KEY = Buffer.alloc(32, 7).toString('base64');

/** The fuzzed server's environment: checkout takes orders (the sandbox), and CEP look-ups,
 * Melhor Envio (its labels, its notifications' route) and Bling go to a closed local port (or a
 * fake), never outside. */
export const FUZZ_SERVER_ENV = {
  PAYMENT_PROVIDER: 'sandbox',
  CEP_SERVICE_URL: 'http://127.0.0.1:9',
  METRICS_TOKEN: FUZZ_METRICS_TOKEN,
  SHIPPING_PROVIDER: 'melhorenvio',
  MELHOR_ENVIO_TOKEN: FUZZ_MELHOR_ENVIO_TOKEN,
  MELHOR_ENVIO_API_URL: 'http://127.0.0.1:9/api/v2',
  MELHOR_ENVIO_USER_AGENT: 'Vitrine (fuzz@vitrine.test)',
  MELHOR_ENVIO_WEBHOOK_SECRET: 'fuzz-melhor-envio-secret',
  SECRETS_KEY: FUZZ_SECRETS_KEY,
  BLING_CLIENT_ID: FUZZ_BLING.clientId,
  BLING_CLIENT_SECRET: FUZZ_BLING.clientSecret,
  BLING_API_URL: 'http://127.0.0.1:9/Api/v3',
};

/** Where the fuzzed store sends staff to authorize it at Bling (by design, not an open redirect). */
export const FUZZ_REDIRECT_ORIGINS = [new URL(FUZZ_SERVER_ENV.BLING_API_URL).origin];

/** The sample store's welcome coupon, applied on the cart and the checkout and by links (`?cupom=`). */
export const FUZZ_COUPON = SAMPLE_COUPONS[0]!.code;

/** A sample product's slug, for /frete's `produto`. */
export const FUZZ_PRODUCT_SLUG = sampleProductPath('Fone de Ouvido').replace('/product/', '');
