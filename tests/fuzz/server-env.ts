/** The fuzzed server's environment: checkout takes orders (the sandbox), and CEP look-ups go
 * to a closed local port, never outside. */
export const FUZZ_SERVER_ENV = {
  PAYMENT_PROVIDER: 'sandbox',
  CEP_SERVICE_URL: 'http://127.0.0.1:9',
};
