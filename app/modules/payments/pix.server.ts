import { isUuid } from '~/lib/uuid';

import { buildPixCode, pixTxid } from './brcode';
import { PAYMENT_NOT_CONFIGURED, paymentRequestError } from './request';
import { MIN_PAYMENT_CENTS, statusReport, type PaymentProvider } from './types';

/** The store settings this provider reads (a subset of `StoreSettings`). */
export interface PixSettings {
  pix_key: string;
  pix_merchant_name: string;
  pix_merchant_city: string;
  pix_expiration_minutes: number;
}

const PAYMENT_ID = /^pix-(.+)$/;

type PixIdentity = Pick<PixSettings, 'pix_key' | 'pix_merchant_name' | 'pix_merchant_city'>;

/**
 * Whether the settings make a payable BR Code: asks the builder itself, so a name that folds to
 * nothing (only emoji, say) counts as missing just like an empty one.
 */
export function isPixConfigured(settings: PixIdentity): boolean {
  return (
    buildPixCode({
      key: settings.pix_key,
      merchantName: settings.pix_merchant_name,
      merchantCity: settings.pix_merchant_city,
      amountCents: MIN_PAYMENT_CENTS,
      txid: 'X',
    }) !== null
  );
}

export interface PixProviderOptions {
  /** Read on every payment, so a key changed in the admin applies to the next order. */
  settings: () => Promise<PixSettings>;
  now?: () => Date;
}

/**
 * PIX straight to the store's own key: a static BR Code with the order's amount and reference.
 * No bank tells the store when it is paid, so `status` always answers 'pending': staff confirm
 * the order by hand after seeing the transfer (the orders module), and the order's own status is
 * what pages follow from then on. An unpaid order is cancelled after `pix_expiration_minutes`.
 *
 * The payment id is `pix-<orderId>` rather than random: there is no book of payments to point
 * into, and a retried payment ("Pagar agora") gets the same id and the same code.
 */
export function createPixProvider(options: PixProviderOptions): PaymentProvider {
  const now = options.now ?? (() => new Date());
  return {
    name: 'pix',
    testMode: false,
    accepts: ['pix'],
    checkoutOrigins: [],

    async create(request) {
      const invalid = paymentRequestError(request);
      if (invalid) return { ok: false, error: invalid };
      if (!isUuid(request.orderId)) return { ok: false, error: 'Erro ao processar pagamento' };
      const settings = await options.settings();
      const pixCode = buildPixCode({
        key: settings.pix_key,
        merchantName: settings.pix_merchant_name,
        merchantCity: settings.pix_merchant_city,
        amountCents: request.amountCents,
        txid: pixTxid(request.orderId),
      });
      if (pixCode === null) return { ok: false, error: PAYMENT_NOT_CONFIGURED };
      return {
        ok: true,
        value: {
          paymentId: `pix-${request.orderId.toLowerCase()}`,
          status: 'pending',
          pixCode,
          pixQrCode: null,
          billetUrl: null,
          billetCode: null,
          paymentUrl: null,
          expiresAt: new Date(now().getTime() + settings.pix_expiration_minutes * 60_000),
        },
      };
    },

    async status(paymentId) {
      const orderId = PAYMENT_ID.exec(paymentId)?.[1];
      if (orderId === undefined || !isUuid(orderId)) {
        return { ok: false, error: 'Pagamento não encontrado' };
      }
      return { ok: true, value: statusReport(paymentId, 'pending') };
    },
  };
}
