export {
  orderCancelledEmail,
  orderDeliveredEmail,
  orderReceivedEmail,
  orderShippedEmail,
  trackingCodeChangedEmail,
  paymentConfirmedEmail,
  restockConfirmEmail,
  restockEmail,
  type EmailStore,
  type OrderEmailData,
  type RenderedEmail,
} from './emails';
