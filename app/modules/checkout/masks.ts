// The CEP's mask apart from the CPF's and the phone's (person-masks.ts), and by hand: every product
// page's shipping estimate masks a CEP, and brazilian-utils' formatters come in files of their
// own, the phone's with the lists of service numbers, which only checkout needs.

/** The `maxLength` of each masked input: the full mask, punctuation included. */
export const MASKED_LENGTH = { cpf: 14, phone: 15, zipCode: 9 } as const;

export function onlyDigits(value: string): string {
  return value.replace(/\D/g, '');
}

// The formatters (here and in person-masks.ts) take what the input holds after a keystroke or a
// paste (digits mixed with the mask's punctuation, possibly too many) and give it back masked,
// partial input included: '1234' reads '123.4' while the shopper is still typing.

/** 00000-000 */
export function maskCep(value: string): string {
  const digits = onlyDigits(value).slice(0, 8);
  return digits.length > 5 ? `${digits.slice(0, 5)}-${digits.slice(5)}` : digits;
}
