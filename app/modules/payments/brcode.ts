import { generatePixPayload } from '@brazilian-utils/brazilian-utils/generate-pix-payload';

export interface PixCodeInput {
  /** The receiver's PIX key in any form the bank shows it (CPF, CNPJ, e-mail, +55 phone, EVP). */
  key: string;
  /** Folded to ASCII and cut to 25 characters by the BR Code rules. */
  merchantName: string;
  /** Folded to ASCII and cut to 15 characters by the BR Code rules. */
  merchantCity: string;
  amountCents: number;
  /** 1 to 25 characters of [A-Za-z0-9]; see `pixTxid`. */
  txid: string;
}

/**
 * The order's reference inside the BR Code: the bank statement shows it, so staff can match a
 * transfer to its order. The field takes 25 letters or digits, so the uuid loses its dashes and
 * its tail; 25 hex digits still leave collisions out of reach for one store.
 */
export function pixTxid(orderId: string): string {
  return orderId.replace(/[^A-Za-z0-9]/g, '').slice(0, 25);
}

/**
 * The "PIX copia e cola" text of a static BR Code for this amount, or null when an input is
 * unusable (an invalid key, a name or city with nothing left after folding, a bad amount or txid).
 */
export function buildPixCode(input: PixCodeInput): string | null {
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0) return null;
  return generatePixPayload({
    key: input.key,
    merchantName: input.merchantName,
    merchantCity: input.merchantCity,
    // The double nearest to n/100 always prints back as exactly n cents with two decimals, and
    // the library refuses any amount that does not survive that round trip.
    amount: input.amountCents / 100,
    txid: input.txid,
  });
}
