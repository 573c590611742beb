import type { ErpName, InvoiceState } from './erp';

// The shape every ERP takes (ADR 048): Bling now, Tiny (Olist ERP) next. Each speaks OAuth2
// with an authorization code and a refresh token, keeps contacts, products by code, sales orders
// and NF-e generated from them; the flows only ever see this interface.

export interface TokenSet {
  accessToken: string;
  refreshToken: string;
  expiresInSeconds: number;
}

export interface ErpCustomer {
  name: string;
  email: string;
  phone: string;
  /** CPF or CNPJ, digits only. */
  document: string;
  address: {
    street: string;
    number: string;
    complement: string;
    district: string;
    zip: string;
    city: string;
    state: string;
  };
}

export interface ErpOrderLine {
  sku: string;
  name: string;
  quantity: number;
  unitPriceCents: number;
}

/** A paid order as the ERP takes it: money in cents, dates as the store's calendar days. */
export interface ErpOrderInput {
  /** The order's number in the store ('1001'): the ERP's numeroLoja, found again by it. */
  storeNumber: string;
  /** YYYY-MM-DD in the store's time zone. */
  date: string;
  customer: ErpCustomer;
  lines: ErpOrderLine[];
  discountCents: number;
  shippingCents: number;
  totalCents: number;
  /** How it was paid, as the instalment's note says it ('PIX', 'Cartão de crédito'). */
  paymentLabel: string;
  /** The payment provider that took the money (NF-e's intermediary), when one did. */
  intermediary: { cnpj: string; name: string } | null;
}

/** An NF-e as the ERP reads it now. */
export interface ErpInvoice {
  id: string;
  state: Exclude<InvoiceState, 'issuing'>;
  number: string | null;
  key: string | null;
  danfeUrl: string | null;
  /** SEFAZ's reason, when rejected. */
  reason: string | null;
}

/**
 * unauthorized: the access token was refused (renew it and try again); revoked: the refresh
 * token was (staff must connect again); refused: the ERP said no and why (pt-BR, shown to staff,
 * not retried); unavailable: no usable answer (retried by the outbox).
 */
export type ErpFailure = 'unauthorized' | 'revoked' | 'refused' | 'unavailable';

export class ErpError extends Error {
  constructor(
    readonly failure: ErpFailure,
    message: string,
  ) {
    super(message);
    this.name = 'ErpError';
  }
}

/**
 * Seals and opens the tokens (ADR 038's AES-256-GCM under the secrets key, the token's name
 * authenticated with it): given by the server, which holds the key, so this module never does.
 */
export interface TokenVault {
  seal(name: string, value: string): string;
  /** Null when sealed under another key, for another name, or damaged. */
  open(name: string, sealed: string): string | null;
}

export interface Erp {
  readonly name: ErpName;
  /** Where staff authorize the store's application, carrying `state` back to the callback. */
  authorizeUrl(state: string): string;
  exchangeCode(code: string): Promise<TokenSet>;
  refresh(refreshToken: string): Promise<TokenSet>;
  /**
   * The ERP's sales order for this store order: the one already there under its number (a retry
   * after a lost answer), else a new one with its contact and products found (or the contact
   * created). Answers the ERP's id.
   */
  sendOrder(token: string, input: ErpOrderInput, signal?: AbortSignal): Promise<string>;
  /** Generates the order's NF-e (or finds the one already generated) and sends it to SEFAZ. */
  issueInvoice(token: string, erpOrderId: string, signal?: AbortSignal): Promise<ErpInvoice>;
  /** Sends a rejected NF-e to SEFAZ again, once staff fixed it in the ERP. */
  resendInvoice(token: string, invoiceId: string, signal?: AbortSignal): Promise<ErpInvoice>;
  readInvoice(token: string, invoiceId: string, signal?: AbortSignal): Promise<ErpInvoice>;
  /**
   * The NF-e a notification names, once its signature is checked: null for another resource,
   * 'unsigned' when the signature does not match.
   */
  notifiedInvoice(rawBody: string, signature: string | null): string | null | 'unsigned';
}
