export {
  orderCancelledEmail,
  orderDeliveredEmail,
  orderReceivedEmail,
  orderShippedEmail,
  paymentConfirmedEmail,
  type EmailStore,
  type OrderEmailData,
  type RenderedEmail,
} from './emails';
