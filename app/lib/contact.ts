/** The number with its country code; stores often type it without Brazil's 55. */
export function whatsappDigits(number: string): string {
  const digits = number.replace(/\D/g, '');
  return digits.length <= 11 ? `55${digits}` : digits;
}

export function whatsappUrl(number: string): string {
  return `https://wa.me/${whatsappDigits(number)}`;
}

/** A tel: link from a phone written any way ("(11) 4000-1234"). */
export function telUrl(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}
