export { createCepLookup, type CepLookup } from './cep.server';
export { readSavedCep, SAVED_CEP_COOKIE, savedCepCookieHeader } from './cep-cookie.server';
export { stateFromCep } from './cep-states';
