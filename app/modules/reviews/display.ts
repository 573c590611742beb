/** The name shown for a review; reviews left without one read "Cliente". */
export function reviewerName(customerName: string): string {
  return customerName.trim() || 'Cliente';
}
