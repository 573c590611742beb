import { isValidCpf } from '@brazilian-utils/brazilian-utils/is-valid-cpf';
import { isValidPhone } from '@brazilian-utils/brazilian-utils/is-valid-phone';
import { z } from 'zod/mini';

import { FORM_MESSAGES, singleLine, text, tooLong, uuidField } from '~/lib/form';
import { optionalCouponCodeSchema } from '~/modules/coupons';
import { PAYMENT_METHODS } from '~/modules/payments';

import { onlyDigits } from './masks';
import { phoneDigits } from './person-masks';
import { BRAZIL_STATES } from './states';

export const CHECKOUT_MESSAGES = {
  customerName: 'Informe seu nome completo.',
  customerEmail: 'Informe seu e-mail.',
  customerEmailInvalid: 'E-mail inválido.',
  customerCpf: 'Informe seu CPF.',
  customerCpfInvalid: 'CPF inválido',
  customerPhone: 'Informe seu telefone.',
  customerPhoneInvalid: 'Telefone inválido. Use (xx) xxxxx-xxxx ou (xx) xxxx-xxxx.',
  zipCode: 'Informe o CEP.',
  zipCodeInvalid: 'CEP inválido. Use o formato 00000-000.',
  street: 'Informe a rua.',
  number: 'Informe o número.',
  neighborhood: 'Informe o bairro.',
  city: 'Informe a cidade.',
  state: 'Selecione o estado.',
  paymentMethod: 'Escolha uma forma de pagamento disponível.',
  shippingOption: 'Escolha uma forma de envio',
  shippingPriceChanged: 'O valor do frete mudou. Confira as formas de envio e finalize de novo.',
  idempotencyKey: 'Formulário expirado. Recarregue a página e tente de novo.',
} as const;

const line = (required: string, max: number, min = 1) =>
  text(required).check(
    z.overwrite(singleLine),
    z.minLength(min, { error: required, abort: true }),
    z.maxLength(max, { error: tooLong(max) }),
  );

/**
 * A number typed with its usual punctuation, reduced to its digits (by `toDigits`) and then
 * checked. The length cap keeps absurd input away from the checks.
 */
const digits = (
  required: string,
  invalid: string,
  isValid: (digits: string) => boolean,
  toDigits = onlyDigits,
) =>
  z
    .pipe(
      text(required).check(
        z.trim(),
        z.minLength(1, { error: required, abort: true }),
        z.maxLength(20, { error: invalid, abort: true }),
        z.regex(/^\+?[\d\s().-]+$/, { error: invalid, abort: true }),
      ),
      z.transform(toDigits),
    )
    .check(z.refine(isValid, { error: invalid }));

/** The 8 digits of a CEP written 00000-000 or 00000000, else undefined. */
export function cepDigits(value: string): string | undefined {
  const match = /^(\d{5})-?(\d{3})$/.exec(value.trim());
  return match ? `${match[1]}${match[2]}` : undefined;
}

export const checkoutFormSchema = z.object({
  customerName: line(CHECKOUT_MESSAGES.customerName, 120, 2),
  customerEmail: z.pipe(
    text(CHECKOUT_MESSAGES.customerEmail).check(
      z.trim(),
      z.toLowerCase(),
      z.minLength(1, { error: CHECKOUT_MESSAGES.customerEmail, abort: true }),
      z.maxLength(254, { error: CHECKOUT_MESSAGES.customerEmailInvalid, abort: true }),
    ),
    z.email({ error: CHECKOUT_MESSAGES.customerEmailInvalid }),
  ),
  customerCpf: digits(
    CHECKOUT_MESSAGES.customerCpf,
    CHECKOUT_MESSAGES.customerCpfInvalid,
    (cpf) => cpf.length === 11 && isValidCpf(cpf),
  ),
  customerPhone: digits(
    CHECKOUT_MESSAGES.customerPhone,
    CHECKOUT_MESSAGES.customerPhoneInvalid,
    (phone) => /^\d{10,11}$/.test(phone) && isValidPhone(phone),
    phoneDigits,
  ),
  zipCode: z.pipe(
    text(CHECKOUT_MESSAGES.zipCode).check(
      z.trim(),
      z.minLength(1, { error: CHECKOUT_MESSAGES.zipCode, abort: true }),
    ),
    z.transform((value: string, payload) => {
      const cep = cepDigits(value);
      if (cep === undefined) {
        payload.issues.push({
          code: 'custom',
          input: value,
          message: CHECKOUT_MESSAGES.zipCodeInvalid,
        });
        return z.NEVER;
      }
      return cep;
    }),
  ),
  street: line(CHECKOUT_MESSAGES.street, 160),
  number: line(CHECKOUT_MESSAGES.number, 20),
  // Left blank, the form still sends the field: blank and absent both mean "no complement".
  complement: z.pipe(
    z.optional(
      z
        .string({ error: FORM_MESSAGES.invalid })
        .check(z.overwrite(singleLine), z.maxLength(80, { error: tooLong(80) })),
    ),
    z.transform((value: string | undefined) => value || undefined),
  ),
  neighborhood: line(CHECKOUT_MESSAGES.neighborhood, 80),
  city: line(CHECKOUT_MESSAGES.city, 80),
  state: z.pipe(
    text(CHECKOUT_MESSAGES.state).check(z.trim(), z.toUpperCase()),
    z.enum(
      BRAZIL_STATES.map((state) => state.code),
      { error: CHECKOUT_MESSAGES.state },
    ),
  ),
  paymentMethod: z._default(
    z.enum(PAYMENT_METHODS, { error: CHECKOUT_MESSAGES.paymentMethod }),
    'pix',
  ),
  // The carrier service chosen and the price the page showed for it ('2:4590'); absent when the
  // store's own rule prices shipping. Checked against a new quote when the order is placed.
  shippingOption: z.optional(
    z
      .string({ error: CHECKOUT_MESSAGES.shippingOption })
      .check(z.regex(/^\d{1,6}:\d{1,9}$/, { error: CHECKOUT_MESSAGES.shippingOption })),
  ),
  // The coupon as the shopper left the field: '' for none.
  couponCode: optionalCouponCodeSchema,
  // The orders table compares keys as text; a browser may write one in either case.
  idempotencyKey: z.pipe(
    z.string({ error: CHECKOUT_MESSAGES.idempotencyKey }).check(z.trim()),
    uuidField(CHECKOUT_MESSAGES.idempotencyKey),
  ),
});

/** What the checkout form sends, as typed. */
/** The checked submission: CPF, phone and CEP as digits, e-mail in lower case, state in capitals. */
export type CheckoutForm = z.output<typeof checkoutFormSchema>;
