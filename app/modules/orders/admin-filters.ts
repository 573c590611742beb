import { parsePage, withPage } from '~/lib/pagination';
import { isCalendarDay } from '~/lib/periods';

import { parseOrderNumber } from './display';
import { ORDER_STATUSES, type OrderStatus } from './schema';

export const ORDERS_PER_PAGE = 20;
/**
 * Orders counted at most for the pager: counting stops there, so a store with 100,000 orders
 * pages as fast as one with 10,000. Older orders are found with the filters.
 */
export const MAX_COUNTED_ORDERS = 10_000;
export const MAX_SEARCH_LENGTH = 100;
export const MAX_COUPON_LENGTH = 30;

/** The list's filters as its URL carries them (`status`, `from`, `to`, `q`, `coupon`, `pagina`). */
export interface OrderFilters {
  status: OrderStatus | null;
  /** First and last day, YYYY-MM-DD, both included, on the store's calendar. */
  from: string | null;
  to: string | null;
  q: string;
  /** A coupon's code in capitals: the orders that used it. Empty for any order. */
  coupon: string;
  page: number;
}

/** A real calendar day written YYYY-MM-DD (see isCalendarDay), or null. */
function calendarDay(text: string | null): string | null {
  const day = text?.trim() ?? '';
  return isCalendarDay(day) ? day : null;
}

/** The filters a URL asks for; anything unknown or malformed is left out, never an error. */
export function parseOrderFilters(params: URLSearchParams): OrderFilters {
  const status = params.get('status');
  let from = calendarDay(params.get('from'));
  let to = calendarDay(params.get('to'));
  // A period typed backwards means the same days.
  if (from && to && from > to) [from, to] = [to, from];
  return {
    status: ORDER_STATUSES.includes(status as OrderStatus) ? (status as OrderStatus) : null,
    from,
    to,
    // Control characters (a NUL, which PostgreSQL refuses in text) are never part of a search.
    q: (params.get('q') ?? '')
      .replace(/[\s\p{Cc}]+/gu, ' ')
      .trim()
      .slice(0, MAX_SEARCH_LENGTH),
    // Codes are kept in capitals, letters and digits only: typed in any case, matched alike.
    coupon: (params.get('coupon') ?? '')
      .replace(/[\s\p{Cc}]+/gu, '')
      .toUpperCase()
      .slice(0, MAX_COUPON_LENGTH),
    page: parsePage(params),
  };
}

/** The URL query of these filters (page 1 is left out), for links and the CSV export. */
export function orderFiltersQuery(filters: OrderFilters, page = filters.page): string {
  const query = new URLSearchParams();
  if (filters.status) query.set('status', filters.status);
  if (filters.from) query.set('from', filters.from);
  if (filters.to) query.set('to', filters.to);
  if (filters.q) query.set('q', filters.q);
  if (filters.coupon) query.set('coupon', filters.coupon);
  const text = withPage(query, page).toString();
  return text ? `?${text}` : '';
}

export function hasOrderFilters(filters: OrderFilters): boolean {
  return !!(filters.status || filters.from || filters.to || filters.q || filters.coupon);
}

/**
 * One word of an order search: an order number ('#1001'), digits that may be an order number or
 * part of a CPF ('1001'), or text the orders' search text must contain.
 */
export type OrderSearchTerm = { number: number; cpf?: string } | { text: string };

/**
 * The words of a search as the orders hold them: '#1001' is that order, '1001' that order or a
 * CPF containing those digits, a CPF typed with its dots and dash reduced to digits (the column
 * keeps digits only), and anything else searched in names, e-mails, CPFs and ids.
 */
export function orderSearchWords(q: string): OrderSearchTerm[] {
  return q
    .split(' ')
    .filter((word) => word.replace(/^#+/, ''))
    .slice(0, 8)
    .map((word): OrderSearchTerm => {
      const number = parseOrderNumber(word);
      if (number !== null) return word.startsWith('#') ? { number } : { number, cpf: word };
      const text = word.replace(/^#+/, '');
      return /^[\d./-]+$/.test(text) && /\d/.test(text)
        ? { text: text.replace(/\D/g, '') }
        : { text };
    });
}
