import { SAMPLE_COUPONS } from '~/flows/sample-store';

import { sampleProductPath } from '../support/sample';

/** /metrics's token: the fuzzer sends it, something like it, or nothing. */
export const FUZZ_METRICS_TOKEN = 'fuzz-metrics-token-0123456789';

/** The fuzzed server's environment: checkout takes orders (the sandbox), and CEP look-ups go
 * to a closed local port, never outside. */
export const FUZZ_SERVER_ENV = {
  PAYMENT_PROVIDER: 'sandbox',
  CEP_SERVICE_URL: 'http://127.0.0.1:9',
  METRICS_TOKEN: FUZZ_METRICS_TOKEN,
};

/** The sample store's welcome coupon, applied on the cart and the checkout and by links (`?cupom=`). */
export const FUZZ_COUPON = SAMPLE_COUPONS[0]!.code;

export const FUZZ_MELHOR_ENVIO_TOKEN = 'fuzz-melhor-envio-token';

/** Carrier shipping through a fake Melhor Envio at `apiUrl` (the store needs its origin CEP). */
export function fuzzCarrierEnv(apiUrl: string): Record<string, string> {
  return {
    SHIPPING_PROVIDER: 'melhorenvio',
    MELHOR_ENVIO_TOKEN: FUZZ_MELHOR_ENVIO_TOKEN,
    MELHOR_ENVIO_API_URL: apiUrl,
    MELHOR_ENVIO_USER_AGENT: 'Vitrine Fuzz (fuzz@loja.test)',
  };
}

/** A sample product's slug, for /frete's `produto`. */
export const FUZZ_PRODUCT_SLUG = sampleProductPath('Fone de Ouvido').replace('/product/', '');
