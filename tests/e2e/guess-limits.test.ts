import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFakeMelhorEnvio, type FakeMelhorEnvio } from '../support/fake-melhorenvio';
import { startServer, type TestServer } from '../support/server';
import { shopperAddress } from '../support/shoppers';

// Issue 36 over HTTP, on the production server: coupon guesses (point 2) and shipping quotes
// (point 4) are limited per client address, and a saved CEP the carrier does not price is never
// kept by the page cache.

// One server for both (a server costs seconds of CPU to start): the carrier's is a store like any
// other for coupons.
const TOKEN = 'me-guess-limits-4417';
let fake: FakeMelhorEnvio;
let server: TestServer;
beforeAll(async () => {
  fake = await startFakeMelhorEnvio({ token: TOKEN });
  server = await startServer({
    settings: { shipping_origin_cep: '01310100' },
    env: {
      SHIPPING_PROVIDER: 'melhorenvio',
      MELHOR_ENVIO_TOKEN: TOKEN,
      MELHOR_ENVIO_API_URL: fake.url,
      MELHOR_ENVIO_USER_AGENT: 'Vitrine Teste (contato@loja.test)',
    },
  });
});
afterAll(async () => {
  await server?.stop();
  await fake?.close();
});

describe('coupon guesses over HTTP', () => {
  const apply = (code: string, address: string) =>
    fetch(`${server.url}/cart.data`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'X-Forwarded-For': address,
      },
      body: new URLSearchParams({ intent: 'coupon', couponCode: code }),
    });

  it("answers 429 in pt-BR past 10 misses from one address, on the cart's POST and on ?cupom=, even for a real code", async () => {
    const guesser = shopperAddress();
    for (let i = 0; i < 10; i++) {
      const miss = await apply(`CHUTE${i}`, guesser);
      expect(miss.status).toBe(400);
      expect(await miss.text()).toContain(`Não encontramos o cupom CHUTE${i}. Confira o código.`);
    }
    const busy =
      /Muitos códigos de cupom tentados em pouco tempo\. Tente de novo em \d+ minutos?\./;
    const posted = await apply('BEMVINDO10', guesser);
    expect(posted.status).toBe(429);
    expect(Number(posted.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(await posted.text()).toMatch(busy);
    const linked = await fetch(`${server.url}/cart?cupom=BEMVINDO10`, {
      headers: { 'X-Forwarded-For': guesser },
    });
    expect(linked.status).toBe(429);
    expect(Number(linked.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(await linked.text()).toMatch(busy);

    const other = await apply('BEMVINDO10', shopperAddress());
    expect(other.status).toBe(200);
    expect(await other.text()).toContain('Cupom BEMVINDO10 aplicado.');
  });
});

describe('shipping quotes over HTTP, with a carrier', () => {
  async function productPath(): Promise<string> {
    const listing = await (await fetch(`${server.url}/products`)).text();
    return /href="(\/product\/[^"?]+)"/.exec(listing)![1]!;
  }

  it('makes at most 20 calls to the carrier a minute for one address; past it /frete answers 429 in pt-BR', async () => {
    const path = await productPath();
    const slug = path.split('/').pop()!;
    const shopper = shopperAddress();
    const before = fake.calculateCalls();
    const statuses: number[] = [];
    for (let n = 0; n < 21; n++) {
      const cep = String(20_040_000 + n).padStart(8, '0');
      const answer = await fetch(`${server.url}/frete?cep=${cep}&produto=${slug}`, {
        headers: { 'X-Forwarded-For': shopper },
      });
      statuses.push(answer.status);
      if (answer.status === 429) {
        expect(Number(answer.headers.get('Retry-After'))).toBeGreaterThan(0);
        expect((await answer.json()).error).toMatch(
          /^Muitos cálculos de frete em pouco tempo\. Tente de novo em/,
        );
      } else await answer.body?.cancel();
    }
    expect(statuses).toEqual([...Array(20).fill(200), 429]);
    expect(fake.calculateCalls() - before).toBe(20);
  });

  it('keeps no product page for a saved CEP the carrier refused, and keeps one it priced', async () => {
    const path = await productPath();
    const page = async (cep: string) => {
      const answer = await fetch(`${server.url}${path}`, {
        headers: { Cookie: `vitrine_cep=${cep}`, 'X-Forwarded-For': shopperAddress() },
      });
      await answer.body?.cancel();
      return {
        status: answer.status,
        cache: answer.headers.get('X-Page-Cache'),
        cacheControl: answer.headers.get('Cache-Control'),
      };
    };
    fake.setFailure(422);
    try {
      const invented = [await page('01399999'), await page('01399999')];
      expect(invented.map((answer) => answer.cacheControl)).toEqual(['private', 'private']);
      expect(invented.map((answer) => answer.cache)).not.toContain('hit');
    } finally {
      fake.setFailure(null);
    }
    await page('69005040');
    expect(await page('69005040')).toMatchObject({ status: 200, cache: 'hit' });
  });
});
