import { formatCep } from '@brazilian-utils/brazilian-utils/format-cep';
import { formatCpf } from '@brazilian-utils/brazilian-utils/format-cpf';
import { formatPhone } from '@brazilian-utils/brazilian-utils/format-phone';

/** The `maxLength` of each masked input: the full mask, punctuation included. */
export const MASKED_LENGTH = { cpf: 14, phone: 15, zipCode: 9 } as const;

export function onlyDigits(value: string): string {
  return value.replace(/\D/g, '');
}

/**
 * A phone's DDD and number. Autofill may prefix the country code, +55, which is dropped so the
 * shopper does not have to.
 */
export function phoneDigits(value: string): string {
  const digits = onlyDigits(value);
  return digits.length > 11 && digits.startsWith('55') ? digits.slice(2) : digits;
}

// The formatters below take what the input holds after a keystroke or a paste (digits mixed
// with the mask's punctuation, possibly too many) and give it back masked, partial input
// included: '1234' reads '123.4' while the shopper is still typing.

/** 000.000.000-00 */
export function maskCpf(value: string): string {
  return formatCpf(onlyDigits(value).slice(0, 11));
}

/** (00) 00000-0000 for a mobile, (00) 0000-0000 for a landline's 10 digits. */
export function maskPhone(value: string): string {
  return formatPhone(phoneDigits(value).slice(0, 11), { mask: 'nanp' });
}

/** 00000-000 */
export function maskCep(value: string): string {
  return formatCep(onlyDigits(value).slice(0, 8));
}
