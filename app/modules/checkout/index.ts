export { CHECKOUT_MESSAGES, cepDigits, checkoutFormSchema, type CheckoutForm } from './form';
export { MASKED_LENGTH, maskCep } from './masks';
export { maskCpf, maskPhone } from './person-masks';
export { BRAZIL_STATES, type StateCode } from './states';
