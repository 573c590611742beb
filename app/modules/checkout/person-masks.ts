import { formatCpf } from '@brazilian-utils/brazilian-utils/format-cpf';
import { formatPhone } from '@brazilian-utils/brazilian-utils/format-phone';

import { onlyDigits } from './masks';

/**
 * A phone's DDD and number. Autofill may prefix the country code, +55, which is dropped so the
 * shopper does not have to.
 */
export function phoneDigits(value: string): string {
  const digits = onlyDigits(value);
  return digits.length > 11 && digits.startsWith('55') ? digits.slice(2) : digits;
}

/** 000.000.000-00 */
export function maskCpf(value: string): string {
  return formatCpf(onlyDigits(value).slice(0, 11));
}

/** (00) 00000-0000 for a mobile, (00) 0000-0000 for a landline's 10 digits. */
export function maskPhone(value: string): string {
  return formatPhone(phoneDigits(value).slice(0, 11), { mask: 'nanp' });
}
