// Screenshots of the storefront for the README: home, catalogue, product, cart, checkout and the
// order confirmation of a PIX order placed there, at 360 px and 1280 px, from the production
// build and the sample store. Run: `npx tsx scripts/screenshots.ts`
// (builds first if the sources changed; VITRINE_BUILD_DIR picks another build folder).
import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';

import { launchBrowser, VIEWPORTS } from '../tests/support/browser';
import { sampleProduct } from '../tests/support/sample';
import { startServer } from '../tests/support/server';
import { shopperCpf } from '../tests/support/shoppers';
import { VALID_CHECKOUT } from '../tests/support/visitor';

const OUT = new URL('../docs/screenshots/', import.meta.url).pathname;

// The sample store as a merchant would run it: a PIX discount and flat-rate shipping turned on
// (no instalments: checkout takes PIX only, so none are offered).
const SETTINGS = { pix_discount_percent: 5, shipping_mode: 'flat_rate' };

const HEADPHONES = sampleProduct('Fone de Ouvido');

const PAGES = [
  ['home', '/'],
  ['catalogue', '/products'],
  ['product', `/product/${HEADPHONES.id}`],
  ['cart', '/cart'],
  ['checkout', '/checkout'],
] as const;

execFileSync(process.execPath, ['scripts/ensure-build.js'], { stdio: 'inherit' });
await mkdir(OUT, { recursive: true });
const server = await startServer({ settings: SETTINGS });
const browser = await launchBrowser();
try {
  for (const [viewportName, viewport] of Object.entries(VIEWPORTS)) {
    const context = await browser.newContext({ viewport, locale: 'pt-BR' });
    const page = await context.newPage();
    await page.request.post(`${server.url}/cart`, {
      form: { intent: 'add', productId: HEADPHONES.id, quantity: '1' },
    });
    for (const [name, path] of PAGES) {
      await page.goto(`${server.url}${path}`, { waitUntil: 'networkidle' });
      await page.evaluate(() => document.fonts.ready);
      const file = `${OUT}${name}-${viewportName === 'mobile' ? 360 : 1280}.png`;
      await page.screenshot({ path: file, fullPage: true });
      console.log(file);
    }
    // The confirmation of a PIX order placed as the checkout's form would (the browser's cookies,
    // so the page is this shopper's), a CPF of its own for each.
    const form = await (await page.request.get(`${server.url}/checkout`)).text();
    const idempotencyKey = /name="idempotencyKey" value="([^"]+)"/.exec(form)?.[1];
    if (!idempotencyKey) throw new Error('No checkout form');
    const placed = await page.request.post(`${server.url}/checkout`, {
      form: { ...VALID_CHECKOUT, customerCpf: shopperCpf(), idempotencyKey },
      maxRedirects: 0,
    });
    const confirmation = placed.headers()['location'];
    if (placed.status() !== 303 || !confirmation) {
      throw new Error(`Checkout answered ${placed.status()}`);
    }
    await page.goto(new URL(confirmation, server.url).href, { waitUntil: 'networkidle' });
    await page.evaluate(() => document.fonts.ready);
    const file = `${OUT}confirmation-${viewportName === 'mobile' ? 360 : 1280}.png`;
    await page.screenshot({ path: file, fullPage: true });
    console.log(file);
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
