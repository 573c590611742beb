/** The outbox topic of a claimed checkout's one recovery e-mail. */
export const ABANDONED_RECOVERY_TOPIC = 'email.abandoned-checkout';

export interface RecoveryMailPayload {
  checkoutId: string;
}
