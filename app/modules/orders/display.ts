import { shippingLineLabel, type OrderShipping } from '~/modules/shipping';

/**
 * How shoppers and staff name an order, everywhere: '#1001' (its number from the store's
 * sequence, short enough to read aloud on the phone). SPEC §9's last 8 characters of the id
 * were not: B and 8, 0 and O.
 */
export function orderNumber(number: number): string {
  return `#${number}`;
}

/** The largest order number a person may type (orders.number is a PostgreSQL integer). */
const MAX_ORDER_NUMBER = 2_147_483_647;

/** An order number as a person types it ('1001', '#1001', '# 1001'), or null. */
export function parseOrderNumber(text: string): number | null {
  const digits = /^#?\s*(\d{1,10})$/.exec(text.trim())?.[1];
  if (!digits) return null;
  const number = Number(digits);
  return number >= 1 && number <= MAX_ORDER_NUMBER ? number : null;
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

/**
 * The shipping line of a shopper's order page: how it ships ('Frete (Correios SEDEX)') and what
 * it cost, when a carrier (or the store's rule standing in for one) priced it; null for the
 * store's own rule, which the order's total already tells.
 */
export function carrierShippingLine(order: {
  shipping: OrderShipping | null;
  shippingCents: number;
}): { label: string; cents: number } | null {
  return order.shipping?.carrier || order.shipping?.approximate
    ? { label: shippingLineLabel(order.shipping), cents: order.shippingCents }
    : null;
}
