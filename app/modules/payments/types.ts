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

export type PaymentProviderName = 'sandbox' | 'pix' | 'pix-api' | 'gateway' | 'mercadopago';

/**
 * Methods a shopper may choose at checkout: PIX unless the provider takes more (its `accepts`)
 * and the settings' switches leave them on. Cards and boleto are paid on the provider's pages.
 */
export const PAYMENT_METHODS = ['pix', 'credit_card', 'boleto'] as const;
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
  /**
   * Which of the order's payments this is ('first', or after which earlier payment): with the
   * order it makes the idempotency key, so a create sent again after a timeout is the same one.
   */
  attempt: string;
  /** What the shopper's statement and the provider's pages call it ('Pedido #1042'). */
  description: string;
  /**
   * The order's own deadline on its first payment, which the payment then keeps (so a create
   * sent again after a timeout is the very same request); null on a later one.
   */
  deadline: Date | null;
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
  /** Where the shopper goes to pay when it is not our page (the provider's own checkout). */
  paymentUrl: string | null;
  expiresAt: Date | null;
}

/** What a provider says of a payment when asked: read from the provider, never from a request. */
export interface PaymentReport {
  status: PaymentStatus;
  /**
   * The payment's id at the provider. It differs from the id asked about when the order's
   * payment was a placeholder for a checkout on the provider's own pages, where the shopper has
   * now paid.
   */
  paymentId: string;
  /** The order the provider files the payment under (our order id as its reference), if any. */
  orderId: string | null;
  /** What the admin shows of it, when the provider tells. */
  details: PaymentDetails | null;
  /** Where the shopper pays it now, when that is off our pages (a boleto issued). */
  paymentUrl?: string | null;
  /**
   * The money, when the provider tells (Mercado Pago does): an approval confirms an order only
   * in reais and for its whole total. `held`: reserved on a card but not charged.
   */
  money?: PaymentMoney | null;
}

export interface PaymentMoney {
  /** The amount charged for the goods (instalment interest not included). */
  cents: number;
  /** ISO 4217 ('BRL'), as the provider gives it. */
  currency: string;
  held: boolean;
  /**
   * The amount the charge asked for, when the provider fixed it (an API Pix charge): any other
   * amount received is wrong, more as well as less, and is for staff to look at.
   */
  exactCents?: number;
}

/** The provider's account of a payment, for staff; amounts in cents. */
export interface PaymentDetails {
  /** 'pix', 'credit_card', 'debit_card', 'boleto', or the provider's own word. */
  method: string | null;
  /** The card's brand or the boleto's issuer, as the provider names it ('master', 'bolbradesco'). */
  brand: string | null;
  installments: number | null;
  installmentCents: number | null;
  /** What the shopper paid in all, instalment interest included. */
  paidCents: number | null;
  /** The provider's fees that come out of the store's money. */
  feeCents: number | null;
  /** What the store receives. */
  netCents: number | null;
  refundedCents: number;
  /** The provider's words on the money reaching the store ('pending', 'released') and when. */
  releaseStatus: string | null;
  releaseDate: string | null;
  /** The payment in the provider's own panel, for staff. */
  panelUrl: string | null;
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
  /**
   * Origins of the provider's own pages a checkout sends the shopper to: the only ones its
   * payment links may point at, and what the storefront's form-action allows beside itself.
   */
  readonly checkoutOrigins: readonly string[];
  create(request: PaymentRequest): Promise<PaymentOutcome<CreatedPayment>>;
  /** Asks the provider (never a request body) how the payment stands now. */
  status(paymentId: string): Promise<PaymentOutcome<PaymentReport>>;
  /**
   * For a provider that signs its notifications: checks one (signature and freshness) and says
   * which payment it is about. The payment is then read from the provider: a notification is
   * only a hint.
   */
  readNotification?(notice: PaymentNotice): NoticeReading;
  /**
   * For a provider that refunds through its API: gives the shopper the whole amount back. The
   * key makes a second call (a double click, two admins) the same refund, never another.
   * Answers the payment as it stands after.
   */
  refund?(paymentId: string, idempotencyKey: string): Promise<PaymentOutcome<PaymentReport>>;
}

/** A notification as it reached us, untouched: signatures cover the raw query and headers. */
export interface PaymentNotice {
  url: URL;
  headers: Headers;
  body: string;
}

export type NoticeReading =
  /** `paymentId` null: a genuine notification about something we do not act on. */
  { ok: true; paymentId: string | null } | { ok: false; status: 400 | 401; error: string };

/** A report with nothing but the status, from a provider that tells no more. */
export function statusReport(paymentId: string, status: PaymentStatus): PaymentReport {
  return { status, paymentId, orderId: null, details: null };
}

/**
 * The methods checkout offers: what the provider takes and the settings leave switched on. A
 * store that switched everything off still takes PIX, as it did before it had a choice.
 */
export function offeredMethods(
  accepts: readonly AcceptedMethod[],
  switches: Record<(typeof PAYMENT_METHOD_SWITCHES)[PaymentMethod], boolean>,
): PaymentMethod[] {
  const offered = PAYMENT_METHODS.filter(
    (method) => accepts.includes(method) && switches[PAYMENT_METHOD_SWITCHES[method]],
  );
  return offered.length > 0 || !accepts.includes('pix') ? offered : ['pix'];
}

/**
 * The payment id an order holds while the shopper pays on the provider's own checkout page, where
 * the payment gets its real id: `checkout-<orderId>`.
 */
export function checkoutPlaceholder(orderId: string): string {
  return `checkout-${orderId}`;
}

export function isCheckoutPlaceholder(paymentId: string | null): boolean {
  return paymentId !== null && paymentId.startsWith('checkout-');
}
