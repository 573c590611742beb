export {
  createCepLookup,
  type CepAddress,
  type CepLookup,
  type CepLookupOptions,
  type CepLookupResult,
} from './cep.server';
export { readSavedCep, SAVED_CEP_COOKIE, savedCepCookieHeader } from './cep-cookie.server';
export { CEP_STATE_RANGES, stateFromCep } from './cep-states';
