// The admin's door: /admin/payments' form, which no shopper's page needs (ADR 021).
export {
  CONNECTIONS_MESSAGES,
  connectionsFormSchema,
  echoableValues,
  MAX_CERTIFICATE_BYTES,
  type ConnectionsForm,
  type ConnectionsSaveForm,
} from './admin-form';
