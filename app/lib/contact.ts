/** wa.me wants the number with country code; stores often type it without Brazil's 55. */
export function whatsappUrl(number: string): string {
  const digits = number.replace(/\D/g, '');
  return `https://wa.me/${digits.length <= 11 ? `55${digits}` : digits}`;
}

/** A tel: link from a phone written any way ("(11) 4000-1234"). */
export function telUrl(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}
