import { randomUUID } from 'node:crypto';

import { checkoutFormSchema, type CheckoutForm } from '~/modules/checkout';

import { shopperAddress, shopperCpf } from './shoppers';

/** A checkout form a shopper would send: every field valid, formatted as typed. */
export const VALID_CHECKOUT = {
  customerName: 'Maria da Silva',
  customerEmail: 'maria@example.com',
  customerCpf: '529.982.247-25',
  customerPhone: '(11) 98765-4321',
  zipCode: '01310-100',
  street: 'Avenida Paulista',
  number: '1000',
  neighborhood: 'Bela Vista',
  city: 'São Paulo',
  state: 'SP',
  paymentMethod: 'pix',
};

/**
 * The checked checkout form of a shopper of its own (CPF and e-mail), with a fresh idempotency
 * key: what placeOrder gets from the route. `patch` changes fields as typed.
 */
export function shopperCheckout(patch: Record<string, string> = {}): CheckoutForm {
  return checkoutFormSchema.parse({
    ...VALID_CHECKOUT,
    customerCpf: shopperCpf(),
    customerEmail: `maria+${randomUUID()}@example.com`,
    idempotencyKey: randomUUID(),
    ...patch,
  });
}

/** An answer read whole: status, headers and the body as text. */
export interface Page {
  status: number;
  headers: Headers;
  text: string;
  /** The redirect target as a path with its query, when there is one. */
  location: string | null;
}

export type PlacedOrder = { orderId: string; paymentId: string | null; location: string };

/**
 * One browser over plain HTTP, without JavaScript: keeps its cookies, never follows redirects,
 * and sends what a browser's form would (urlencoded, `Accept: text/html`)..
 * Its cookies can be read and forged.
 */
export class Visitor {
  readonly cookies = new Map<string, string>();
  /**
   * The client address the server should see, sent as X-Forwarded-For (the server trusts it from
   * loopback, TRUST_PROXY's default); a function gives each request its own. Unset: an address of
   * this visitor's own, as each shopper has (shopperAddress).
   */
  address: string | (() => string);
  /** This shopper's CPF, masked: what `checkout()` sends unless told otherwise. */
  readonly cpf = shopperCpf();
  /** How requests go out: Node's fetch, or one that trusts a test's certificate (nginx.ts). */
  private readonly fetch: typeof fetch;
  constructor(
    readonly baseUrl: string,
    options: { address?: string | (() => string); fetch?: typeof fetch } = {},
  ) {
    this.address = options.address ?? shopperAddress();
    this.fetch = options.fetch ?? fetch;
  }

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async request(path: string, init: RequestInit = {}): Promise<Page> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0 && !headers.has('Cookie')) headers.set('Cookie', this.cookieHeader());
    if (!headers.has('Accept')) headers.set('Accept', 'text/html');
    const address = typeof this.address === 'function' ? this.address() : this.address;
    if (!headers.has('X-Forwarded-For')) headers.set('X-Forwarded-For', address);
    const response = await this.fetch(new URL(path, this.baseUrl), {
      ...init,
      headers,
      redirect: 'manual',
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair = ''] = header.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      if (/Max-Age=0/i.test(header)) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(at + 1));
    }
    const location = response.headers.get('location');
    const target = location ? new URL(location, this.baseUrl) : null;
    return {
      status: response.status,
      headers: response.headers,
      text: await response.text(),
      location: target ? `${target.pathname}${target.search}` : null,
    };
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Page> {
    return this.request(path, { headers });
  }

  /** A form post, with fields given as pairs so that one may repeat. */
  post(
    path: string,
    fields: Record<string, string> | [string, string][],
    headers: Record<string, string> = {},
  ): Promise<Page> {
    return this.request(path, {
      method: 'POST',
      body: new URLSearchParams(fields),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    });
  }

  /**
   * A product's stock as its page gives it away: 0 when sold out, else the quantity field's
   * maximum (the page names the stock only when it is low). That maximum is the stock only up to
   * the store's `max_quantity_per_item`: a server whose tests read larger stocks raises it.
   * Follows the id link's 301 to the slug.
   */
  async stockOf(productId: string): Promise<number> {
    let page = await this.get(`/product/${productId}`);
    if (page.status === 301 && page.location) page = await this.get(page.location);
    if (/data-testid="out-of-stock"/.test(page.text)) return 0;
    const field = page.text
      .match(/<input[^>]*name="quantity"[^>]*>/g)
      ?.find((tag) => tag.includes('max='));
    const stock = field && /max="(\d+)"/.exec(field)?.[1];
    if (!stock) throw new Error('No stock on the product page');
    return Number(stock);
  }

  async addToCart(productId: string, quantity = 1): Promise<void> {
    const answer = await this.post('/cart', {
      intent: 'add',
      productId,
      quantity: String(quantity),
    });
    if (answer.status !== 303) throw new Error(`Adding to the cart answered ${answer.status}`);
  }

  /** The digits of an order's number, read from its page (this browser's order; paid, it moved). */
  async orderNumber(orderId: string): Promise<string> {
    let page = await this.get(`/order-confirmation?${new URLSearchParams({ orderId })}`);
    if (page.status === 302 && page.location) page = await this.get(page.location);
    return orderNumberIn(page.text);
  }

  /** The idempotency key of a fresh checkout page (the cart must hold something). */
  async checkoutKey(): Promise<string> {
    const page = await this.get('/checkout');
    const key = /name="idempotencyKey" value="([^"]+)"/.exec(page.text)?.[1];
    if (!key) throw new Error(`No checkout form (${page.status} ${page.location ?? ''})`);
    return key;
  }

  /** Opens the checkout and posts its form (with this shopper's CPF); the order must be placed. */
  async checkout(
    fields: Record<string, string> = { ...VALID_CHECKOUT, customerCpf: this.cpf },
  ): Promise<PlacedOrder> {
    const idempotencyKey = await this.checkoutKey();
    const answer = await this.post('/checkout', { ...fields, idempotencyKey });
    const target = answer.location ? new URL(answer.location, this.baseUrl) : null;
    const orderId =
      target?.pathname === '/order-confirmation' && target.searchParams.get('orderId');
    if (answer.status !== 303 || !orderId) {
      throw new Error(
        `Checkout answered ${answer.status} ${answer.location ?? answer.text.slice(0, 300)}`,
      );
    }
    return { orderId, paymentId: target.searchParams.get('paymentId'), location: answer.location! };
  }
}

/** How many answers had each status: { 401: 5, 429: 25 }. */
export function tally(pages: Page[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const page of pages) counts[page.status] = (counts[page.status] ?? 0) + 1;
  return counts;
}

/** The digits of the order number a page names ('Pedido #1001' gives '1001'). */
export function orderNumberIn(html: string): string {
  const digits = /Pedido (?:<[^>]+>)*#(\d+)/.exec(html)?.[1];
  if (!digits) throw new Error('The page names no order');
  return digits;
}

/** The page's text without tags, whitespace squeezed, for reading what a shopper reads. */
export function visibleText(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}
