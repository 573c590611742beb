import { addBusinessDays } from '@brazilian-utils/brazilian-utils/add-business-days';

import { calendarDayIn } from '~/lib/periods';

/**
 * A boleto's last day to pay, `businessDays` business days (national holidays skipped) after
 * today in Brasília, where banks keep their hours; it can be paid until the end of that day.
 */
export function boletoDueDay(today: Date, businessDays: number): Date {
  const [year, month, day] = calendarDayIn(today, 'America/Sao_Paulo').split('-').map(Number);
  // Noon of that calendar day: the library counts the server's local days.
  const due = addBusinessDays(new Date(year!, month! - 1, day!, 12), businessDays);
  const pad = (value: number) => String(value).padStart(2, '0');
  const date = due ?? new Date(today.getTime() + businessDays * 24 * 60 * 60_000);
  return new Date(
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T23:59:59-03:00`,
  );
}

/**
 * A boleto paid on its last day reaches the store one or two business days later (bank
 * clearing, as Mercado Pago's documentation warns): the order waits that long before it gives
 * up, so a shopper who paid in time is never cancelled.
 */
export const BOLETO_CLEARING_DAYS = 2;
