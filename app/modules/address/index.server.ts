export {
  createCepLookup,
  type CepAddress,
  type CepLookup,
  type CepLookupOptions,
  type CepLookupResult,
} from './cep.server';
