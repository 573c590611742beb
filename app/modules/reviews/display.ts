import { formatDate } from '~/lib/date-format';

/** The name shown for a review; reviews left without one read "Cliente". */
export function reviewerName(customerName: string): string {
  return customerName.trim() || 'Cliente';
}

/** When a review was written, on the store's calendar: "3 de março de 2026". */
export function formatReviewDate(date: Date, timeZone: string): string {
  return formatDate(date, timeZone, 'long');
}
