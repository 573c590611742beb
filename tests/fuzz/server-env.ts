import { SAMPLE_COUPONS } from '~/flows/sample-store';

/** The fuzzed server's environment: checkout takes orders (the sandbox), and CEP look-ups go
 * to a closed local port, never outside. */
export const FUZZ_SERVER_ENV = {
  PAYMENT_PROVIDER: 'sandbox',
  CEP_SERVICE_URL: 'http://127.0.0.1:9',
};

/** The sample store's welcome coupon, applied on the cart and the checkout and by links (`?cupom=`). */
export const FUZZ_COUPON = SAMPLE_COUPONS[0]!.code;
