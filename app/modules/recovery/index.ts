export {
  CHECKOUT_CONTACT_PATH,
  CHECKOUT_RECOVERY_TEXTS,
  RECOVERY_OPT_OUT_FIELD,
} from './checkout-contact';
export {
  maskEmail,
  RECOVER_PATH,
  RECOVERY_KEY_PARAM,
  RECOVERY_MESSAGES,
  UNSUBSCRIBE_PATH,
  whatsappLink,
} from './recovery';
