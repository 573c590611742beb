/**
 * A payment's state as every provider reports it, in our words. The gateway's PENDING,
 * APPROVED, REJECTED, REFUNDED and CHARGEBACK map to these; 'expired' is a PIX whose time ran out.
 */
export const PAYMENT_STATUSES = [
  'pending',
  'approved',
  'rejected',
  'expired',
  'refunded',
  'chargeback',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export type PaymentProviderName = 'sandbox' | 'pix' | 'gateway';

/** Methods a shopper may choose; PIX unless the provider and the settings enable more. */
export const PAYMENT_METHODS = ['pix'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** Every way to pay a store's settings can switch on (enable_pix, enable_credit_card…). */
export const PAYMENT_METHOD_SWITCHES = {
  pix: 'enable_pix',
  credit_card: 'enable_credit_card',
  debit_card: 'enable_debit_card',
  boleto: 'enable_boleto',
  paypal: 'enable_paypal',
} as const;
export type AcceptedMethod = keyof typeof PAYMENT_METHOD_SWITCHES;

export const ACCEPTED_METHOD_LABELS: Record<AcceptedMethod, string> = {
  pix: 'PIX',
  credit_card: 'Cartão de crédito',
  debit_card: 'Cartão de débito',
  boleto: 'Boleto',
  paypal: 'PayPal',
};

/** SPEC §9: no provider takes less. */
export const MIN_PAYMENT_CENTS = 501;

export interface PaymentRequest {
  orderId: string;
  amountCents: number;
  method: PaymentMethod;
  customer: {
    name: string;
    email: string;
    /** 11 digits. */
    cpf: string;
    /** 10 or 11 digits. */
    phone: string;
  };
  items: { productId: string | null; title: string; unitPriceCents: number; quantity: number }[];
  /** The shopper's utm_* parameters as a query string ("utm_source=x&…"), or ''. */
  utmQuery: string;
}

export interface CreatedPayment {
  paymentId: string;
  status: PaymentStatus;
  /** PIX "copia e cola" BR Code. */
  pixCode: string | null;
  /** What the provider gave for the QR image, if anything; pages draw the QR from pixCode. */
  pixQrCode: string | null;
  billetUrl: string | null;
  billetCode: string | null;
  expiresAt: Date | null;
}

/** A provider's answer; `error` is pt-BR and may be shown to the shopper (SPEC §8). */
export type PaymentOutcome<T> = { ok: true; value: T } | { ok: false; error: string };

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /** True for the sandbox: pages show 'Modo de teste' and the tester's buttons. */
  readonly testMode: boolean;
  /**
   * What checkout can take through this provider, so the store promises no other way to pay
   * (the footer, the FAQ, 'ou 12x… sem juros'): the settings' switches narrow it, never widen it.
   */
  readonly accepts: readonly AcceptedMethod[];
  create(request: PaymentRequest): Promise<PaymentOutcome<CreatedPayment>>;
  /** Asks the provider (never a request body) how the payment stands now. */
  status(paymentId: string): Promise<PaymentOutcome<PaymentStatus>>;
}
