export {
  CONNECTION_ENV,
  CONNECTION_FIELDS,
  isSecretField,
  PAYMENT_PROVIDER_CHOICES,
  PLAIN_CONNECTION_FIELDS,
  SECRET_CONNECTION_FIELDS,
  type ConnectionField,
  type ConnectionSource,
  type ConnectionsView,
  type PaymentProviderChoice,
  type PlainConnectionField,
  type SecretConnectionField,
} from './connections';
