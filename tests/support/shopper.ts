/**
 * A shopper over plain HTTP, as a browser without JavaScript: cart, checkout page, checkout post.
 * Load tests and the crash test run many of these at once.
 */

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

export type CheckoutAttempt =
  | { placed: true; orderId: string; paymentId: string | null }
  | { placed: false; status: number; location: string | null };

/** Cookies of one browser, kept by name. */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(response: Response) {
    for (const header of response.headers.getSetCookie()) {
      const [pair = ''] = header.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      if (/Max-Age=0/i.test(header)) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(at + 1));
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

export class Shopper {
  private readonly jar = new CookieJar();
  constructor(private readonly baseUrl: string) {}

  private async send(path: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(new URL(path, this.baseUrl), {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), Cookie: this.jar.header() },
    });
    this.jar.take(response);
    return response;
  }

  private post(path: string, fields: Record<string, string>): Promise<Response> {
    return this.send(path, {
      method: 'POST',
      body: new URLSearchParams(fields),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' },
    });
  }

  async addToCart(productId: string, quantity = 1): Promise<void> {
    const response = await this.post('/cart', {
      intent: 'add',
      productId,
      quantity: String(quantity),
    });
    await response.arrayBuffer();
    if (response.status !== 303) throw new Error(`Adding to the cart answered ${response.status}`);
  }

  /** Opens the checkout page and posts its form, with the page's own idempotency key. */
  async checkout(fields: Record<string, string> = VALID_CHECKOUT): Promise<CheckoutAttempt> {
    const page = await this.send('/checkout');
    const html = await page.text();
    const key = /name="idempotencyKey" value="([^"]+)"/.exec(html)?.[1];
    if (!key) return { placed: false, status: page.status, location: page.headers.get('location') };
    return this.submit({ ...fields, idempotencyKey: key });
  }

  async submit(fields: Record<string, string>): Promise<CheckoutAttempt> {
    const response = await this.post('/checkout', fields);
    await response.arrayBuffer();
    const location = response.headers.get('location');
    const target = location ? new URL(location, this.baseUrl) : null;
    const orderId =
      target?.pathname === '/order-confirmation' && target.searchParams.get('orderId');
    if (response.status === 303 && orderId) {
      return { placed: true, orderId, paymentId: target.searchParams.get('paymentId') };
    }
    return { placed: false, status: response.status, location };
  }
}

/** A product id from the catalogue page (the sample store's first card). */
export async function firstProductId(baseUrl: string): Promise<string> {
  const html = await (await fetch(new URL('/products', baseUrl))).text();
  const id = /\/product\/([0-9a-f-]{36})/.exec(html)?.[1];
  if (!id) throw new Error('No product on /products');
  return id;
}
