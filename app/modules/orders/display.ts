/** SPEC §9: an order is named by the last 8 characters of its id. */
export function orderNumber(orderId: string): string {
  return orderId.slice(-8).toUpperCase();
}

/**
 * 'Desconto PIX (10%)': the label of an order's discount line. The percentage is read back from
 * the amounts (the order keeps the discount, not the setting, which may have changed since): the
 * discount was pixDiscountCents, rounded down, so rounding up gives the percentage back.
 */
export function pixDiscountLabel(subtotalCents: number, discountCents: number): string {
  if (subtotalCents <= 0 || discountCents <= 0) return 'Desconto PIX';
  return `Desconto PIX (${Math.ceil((discountCents * 100) / subtotalCents)}%)`;
}

export interface AddressParts {
  street: string;
  number: string;
  complement: string | null;
  neighborhood: string;
  city: string;
  state: string;
  zipCode: string;
}

/** SPEC §3's one-line address: street, number, complement, neighbourhood, city - UF, CEP. */
export function addressLine(address: AddressParts): string {
  const cep = address.zipCode.replace(/^(\d{5})(\d{3})$/, '$1-$2');
  return [
    `${address.street}, ${address.number}`,
    address.complement || null,
    address.neighborhood,
    `${address.city} - ${address.state}`,
    `CEP ${cep}`,
  ]
    .filter(Boolean)
    .join(', ');
}
