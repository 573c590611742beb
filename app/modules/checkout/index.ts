export {
  BRAZIL_STATES,
  CHECKOUT_MESSAGES,
  cepDigits,
  checkoutFormSchema,
  type CheckoutForm,
  type StateCode,
} from './form';
export { MASKED_LENGTH, maskCep } from './masks';
export { maskCpf, maskPhone } from './person-masks';
