import { and, eq, gt, lt } from 'drizzle-orm';

import type { Db } from '~/db/database.server';
import { logger } from '~/lib/logger.server';

import { storeOptions, type OptionSettings } from './options';
import { shippingQuotes } from './schema';
import {
  QuoteRefused,
  type CarrierQuote,
  type QuoteRequest,
  type ShippingProvider,
  type ShippingQuote,
} from './types';

/** How long a carrier's answer is reused for the same parcel and CEPs. */
export const QUOTE_TTL_MS = 10 * 60_000;
/** The longest a shopper's page waits for a carrier before the store's own rule answers. */
export const QUOTE_DEADLINE_MS = 3_000;
/** After a carrier failed, pages use the store's rule this long without asking it again. */
const FAILURE_PAUSE_MS = 30_000;

export interface ShippingQuoter {
  /** The carrier integration's name ('melhorenvio'), recorded on orders. */
  provider: string;
  /**
   * The options for a parcel, from the cache or the carrier; the store's own rule (approximate)
   * when the carrier fails or takes longer than QUOTE_DEADLINE_MS. Never throws for the carrier.
   */
  quote(
    db: Db,
    request: QuoteRequest,
    settings: OptionSettings,
    /**
     * Asked just before the carrier would be called (never for an answer from the cache): false
     * keeps the carrier out of it, and the store's rule answers, approximate.
     */
    mayCallCarrier?: () => Promise<boolean>,
  ): Promise<ShippingQuote>;
}

/**
 * One quoter per process: concurrent identical quotes share one call to the carrier (and one
 * read of the cache), and its answer is kept in the database for every instance.
 */
export function createShippingQuoter(
  provider: ShippingProvider,
  options: { deadlineMs?: number; now?: () => number } = {},
): ShippingQuoter {
  const deadlineMs = options.deadlineMs ?? QUOTE_DEADLINE_MS;
  const now = options.now ?? Date.now;
  const inFlight = new Map<string, Promise<CarrierQuote[] | null>>();
  // Per-process only: a pause, not a fact about the store.
  let failedUntil = 0;

  async function fetchQuotes(
    db: Db,
    key: string,
    request: QuoteRequest,
    mayCallCarrier: (() => Promise<boolean>) | undefined,
  ) {
    const [cached] = await db
      .select({ quotes: shippingQuotes.quotes })
      .from(shippingQuotes)
      .where(and(eq(shippingQuotes.key, key), gt(shippingQuotes.expiresAt, new Date(now()))));
    if (cached) return cached.quotes;
    if (now() < failedUntil) return null;
    if (mayCallCarrier && !(await mayCallCarrier())) return null;
    let quotes: CarrierQuote[];
    try {
      quotes = await provider.quote(request, AbortSignal.timeout(deadlineMs));
    } catch (error) {
      if (!(error instanceof QuoteRefused)) failedUntil = now() + FAILURE_PAUSE_MS;
      logger.warn(
        { err: error instanceof Error ? error.message : String(error), provider: provider.name },
        "Shipping quote failed: the store's own rule prices shipping for now",
      );
      return null;
    }
    failedUntil = 0;
    const expiresAt = new Date(now() + QUOTE_TTL_MS);
    await db
      .insert(shippingQuotes)
      .values({ key, quotes, expiresAt })
      .onConflictDoUpdate({ target: shippingQuotes.key, set: { quotes, expiresAt } });
    return quotes;
  }

  return {
    provider: provider.name,
    async quote(db, request, settings, mayCallCarrier) {
      const key = quoteKey(provider.name, request);
      let flight = inFlight.get(key);
      if (!flight) {
        flight = fetchQuotes(db, key, request, mayCallCarrier).finally(() => inFlight.delete(key));
        inFlight.set(key, flight);
      }
      const quotes = await flight;
      if (quotes === null) return { kind: 'rule', approximate: true };
      const offered = storeOptions(quotes, settings);
      // A carrier that carries nothing of this (every service refused it) is not a failure of
      // the store: its own rule answers, as approximate as when the carrier is down.
      return offered.length > 0
        ? { kind: 'carrier', options: offered }
        : { kind: 'rule', approximate: true };
    },
  };
}

export function quoteKey(provider: string, { fromCep, toCep, parcel }: QuoteRequest): string {
  const { weightGrams, lengthCm, widthCm, heightCm } = parcel;
  return `${provider}:${fromCep}:${toCep}:${weightGrams}:${lengthCm}x${widthCm}x${heightCm}`;
}

/** Deletes answers past their time; run by the background sweep. */
export async function sweepShippingQuotes(db: Db, at = new Date()): Promise<void> {
  await db.delete(shippingQuotes).where(lt(shippingQuotes.expiresAt, at));
}
