export {
  orderReceivedEmail,
  paymentConfirmedEmail,
  type EmailStore,
  type OrderEmailData,
  type RenderedEmail,
} from './emails';
