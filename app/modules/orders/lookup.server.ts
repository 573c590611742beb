import { isValidCpf } from '@brazilian-utils/brazilian-utils/is-valid-cpf';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';

import type { Db } from '~/db/database.server';
import { textError } from '~/lib/form';

import { parseOrderNumber } from './display';
import { ORDER_LOOKUP_CONTACT_MAX, ORDER_LOOKUP_MESSAGES, ORDER_LOOKUP_NUMBER_MAX } from './lookup';
import { orders } from './schema';

/** Who asks for an order: the e-mail (lower case) or the CPF (digits) the order was placed with. */
export type OrderContact = { email: string } | { cpf: string };

const contact = z
  .string({ error: textError(ORDER_LOOKUP_MESSAGES.contact) })
  .trim()
  .min(1, { error: ORDER_LOOKUP_MESSAGES.contact, abort: true })
  .max(ORDER_LOOKUP_CONTACT_MAX, { error: ORDER_LOOKUP_MESSAGES.contactInvalid, abort: true })
  .transform((value, payload): OrderContact => {
    if (value.includes('@')) {
      const email = value.toLowerCase();
      if (z.email().safeParse(email).success) return { email };
    } else if (/^[\d.\s-]+$/.test(value)) {
      const cpf = value.replace(/\D/g, '');
      if (cpf.length === 11 && isValidCpf(cpf)) return { cpf };
    }
    payload.issues.push({
      code: 'custom',
      input: value,
      message: ORDER_LOOKUP_MESSAGES.contactInvalid,
    });
    return z.NEVER;
  });

const number = z
  .string({ error: textError(ORDER_LOOKUP_MESSAGES.number) })
  .trim()
  .min(1, { error: ORDER_LOOKUP_MESSAGES.number, abort: true })
  .max(ORDER_LOOKUP_NUMBER_MAX, { error: ORDER_LOOKUP_MESSAGES.numberInvalid, abort: true })
  .transform((value, payload) => {
    const parsed = parseOrderNumber(value);
    if (parsed !== null) return parsed;
    payload.issues.push({
      code: 'custom',
      input: value,
      message: ORDER_LOOKUP_MESSAGES.numberInvalid,
    });
    return z.NEVER;
  });

/** 'Encontrar meu pedido': the e-mail or CPF, and the order's number. */
export const orderLookupSchema = z.object({ contact, number });

export type OrderLookup = z.output<typeof orderLookupSchema>;

/** The rate limits' name for this contact, whichever way it was typed. */
export function orderContactKey(contact: OrderContact): string {
  return 'email' in contact ? `email:${contact.email}` : `cpf:${contact.cpf}`;
}

/** The order with this number placed with this e-mail or CPF, or null (one indexed read). */
export async function findOrderForContact(db: Db, lookup: OrderLookup): Promise<string | null> {
  const sameContact =
    'email' in lookup.contact
      ? eq(orders.customerEmail, lookup.contact.email)
      : eq(orders.customerCpf, lookup.contact.cpf);
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.number, lookup.number), sameContact));
  return row?.id ?? null;
}
