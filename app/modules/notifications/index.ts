export {
  orderCancelledEmail,
  orderDeliveredEmail,
  orderReceivedEmail,
  orderShippedEmail,
  trackingCodeChangedEmail,
  paymentConfirmedEmail,
  restockEmail,
  type EmailStore,
  type OrderEmailData,
  type RenderedEmail,
  type RestockEmailData,
} from './emails';
