export {
  checkoutContactSchema,
  claimDueCheckouts,
  deleteExpiredRecovery,
  deleteRecoveryData,
  isRecoveryOptedOut,
  issueRecoveryMail,
  markCheckoutsConverted,
  markRecoveryMailSent,
  recoveryDataOf,
  restoreByKey,
  saveAbandonedCheckout,
  setRecoveryOptOut,
  unsubscribeByKey,
  unsubscribeKeyEmail,
  type CheckoutContact,
  type RecoveryData,
  type RecoveryMail,
} from './checkouts.server';
export {
  CART_LIFE_MS,
  CHECKOUT_RECOVERY_COOKIE,
  checkoutRecoveryCookieHeader,
  readCheckoutRecoveryCookie,
} from './cookie.server';
export { ABANDONED_RECOVERY_TOPIC, type RecoveryMailPayload } from './topics';
export type { KeptLine } from './schema';
