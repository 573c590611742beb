export {
  orderCancelledEmail,
  orderDeliveredEmail,
  orderReceivedEmail,
  orderShippedEmail,
  trackingCodeChangedEmail,
  paymentConfirmedEmail,
  type EmailStore,
  type OrderEmailData,
  type RenderedEmail,
} from './emails';
