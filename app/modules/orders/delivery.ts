import { addBusinessDays } from '@brazilian-utils/brazilian-utils/add-business-days';

import { formatCalendarDay } from '~/lib/date-format';
import { calendarDayIn } from '~/lib/periods';
import type { StateCode } from '~/modules/checkout';
import type { ShippingOffer } from '~/modules/shipping';

/**
 * The day a paid order should arrive: `businessDays` business days after payment, skipping
 * weekends and national holidays (and that state's own, given a destination state), counted on
 * the store's calendar (not the server's time zone). Answers the calendar date as YYYY-MM-DD, or
 * null outside the years the holiday table knows.
 */
export function estimatedDelivery(
  paidAt: Date,
  businessDays: number,
  timeZone: string,
  stateCode?: StateCode,
): string | null {
  const [year, month, day] = calendarDayIn(paidAt, timeZone).split('-').map(Number);
  // Noon of that day in the server's zone: the library reads local calendar days.
  const due = addBusinessDays(
    new Date(year!, month! - 1, day!, 12),
    businessDays,
    stateCode ? { stateCode } : undefined,
  );
  if (!due) return null;
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${due.getFullYear()}-${pad(due.getMonth() + 1)}-${pad(due.getDate())}`;
}

/**
 * "sexta-feira, 4 de dezembro de 2026" for a YYYY-MM-DD date; without the year ("sexta-feira, 4
 * de dezembro") for a promise a few days ahead.
 */
export function formatDeliveryDate(date: string, { year = true } = {}): string {
  return formatCalendarDay(date, { year });
}

/**
 * Where a CEP is and when an order paid today would arrive there. The shipping price is not in
 * it: it depends on the amount (a product, the cart), which the page applies the store's rules to.
 */
export type DeliveryEstimate =
  | {
      ok: true;
      /** 01310-100 */
      cep: string;
      state: StateCode;
      stateName: string;
      /** "Entrega em até 7 dias úteis para SP: chega até …, se o pagamento for confirmado hoje." */
      text: string;
    }
  | {
      ok: false;
      /** What the shopper typed (shortened), to show it again in the field. */
      cep: string;
      error: string;
    };

/** A CEP's estimate with how the goods ship there: the carriers' options, or the store's rule. */
export type ShippingEstimate =
  | Extract<DeliveryEstimate, { ok: false }>
  | (Extract<DeliveryEstimate, { ok: true }> & { shipping: ShippingOffer });
