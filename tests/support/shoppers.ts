import { formatCpf } from '@brazilian-utils/brazilian-utils/format-cpf';
import { generateCpf } from '@brazilian-utils/brazilian-utils/generate-cpf';

// A store holds at most `max_pending_orders` unpaid orders per browser, CPF and client address:
// tests and benchmarks that play many shoppers give each one its own, as real shoppers have.

/** A valid CPF of its own, masked as a shopper types it (529.982.247-25). */
export function shopperCpf(): string {
  return formatCpf(generateCpf());
}

let nextAddress = Math.floor(Math.random() * 2 ** 16);

/**
 * A client address of its own, sent as X-Forwarded-For (which the server trusts from loopback):
 * from 198.18.0.0/15, the range set aside for benchmarks, never twice in one process.
 */
export function shopperAddress(): string {
  const n = nextAddress++ % 2 ** 17;
  return `198.${18 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;
}
