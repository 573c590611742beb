// The admin's door: /admin/integrations' form, which no shopper's page needs (ADR 021).
export {
  INTEGRATIONS_FORM_MESSAGES,
  integrationsFormSchema,
  type IntegrationsForm,
} from './admin-form';
