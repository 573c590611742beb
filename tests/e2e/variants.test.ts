import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import type { Db } from '~/db/database.server';
import { products, productVariants } from '~/db/schema';

import { scrapeForms } from '../fuzz/discovery';
import { seriousAxeViolations } from '../support/axe';
import { VIEWPORTS, waitForHydration } from '../support/browser';
import { useStoreAndBrowser } from '../support/fixtures';
import { shopperAddress, shopperCpf } from '../support/shoppers';

/**
 * A T-shirt in three sizes and two colours: P/Preto is sold out and G/Preto is not offered; M/Azul
 * costs more, has a 'de' price and its own picture, M/Preto another picture. One per run, so each
 * run's purchase reads its own stock.
 */
const RUNS = [
  { name: 'phone, 360 px, with JavaScript', viewport: VIEWPORTS.mobile, javaScript: true },
  { name: 'phone, 360 px, without JavaScript', viewport: VIEWPORTS.mobile, javaScript: false },
  { name: 'desktop, with JavaScript', viewport: VIEWPORTS.desktop, javaScript: true },
  { name: 'desktop, without JavaScript', viewport: VIEWPORTS.desktop, javaScript: false },
].map((run, index) => ({
  ...run,
  slug: `camiseta-variantes-${index + 1}`,
  sku: `CAM${index + 1}`,
}));

const PRODUCT_PICTURE = '/sample/mouse-sem-fio-1.svg';
const M_BLUE_PICTURE = '/sample/teclado-mecanico-rgb-1.svg';
const M_BLACK_PICTURE = '/sample/headset-gamer-1.svg';

async function seedShirt(db: Db, slug: string, sku: string) {
  await db.transaction(async (tx) => {
    const [product] = await tx
      .insert(products)
      .values({
        name: `Camiseta Básica ${slug.slice(-1)}`,
        slug,
        description: 'Algodão, em três tamanhos e duas cores.',
        priceCents: 9990,
        imageUrls: [PRODUCT_PICTURE],
        options: [
          { name: 'Tamanho', values: [{ name: 'P' }, { name: 'M' }, { name: 'G' }] },
          {
            name: 'Cor',
            values: [
              { name: 'Azul', color: '#1d4ed8' },
              { name: 'Preto', color: '#111111' },
            ],
          },
        ],
      })
      .returning({ id: products.id });
    const variant = (
      position: number,
      size: string,
      colour: string,
      stock: number,
      extra: Partial<typeof productVariants.$inferInsert> = {},
    ) => ({
      productId: product!.id,
      position,
      sku: `${sku}-${size}-${colour.toUpperCase()}`,
      option1: size,
      option2: colour,
      stockQuantity: stock,
      ...extra,
    });
    await tx.insert(productVariants).values([
      variant(1, 'P', 'Preto', 0),
      variant(2, 'P', 'Azul', 5),
      variant(3, 'M', 'Azul', 4, {
        priceCents: 12990,
        compareAtPriceCents: 15990,
        imageUrls: [M_BLUE_PICTURE],
      }),
      variant(4, 'M', 'Preto', 6, { imageUrls: [M_BLACK_PICTURE] }),
      variant(5, 'G', 'Azul', 3),
    ]);
  });
}

const details = (page: Page) => page.getByTestId('product-details');
const picker = (page: Page) => page.getByTestId('variant-picker');
const group = (page: Page, option: string) =>
  picker(page).getByRole('group', { name: new RegExp(`^${option}`) });
const value = (page: Page, option: string, name: string) =>
  group(page, option).getByRole('button', { name, exact: true });
const mainPicture = (page: Page) =>
  page.getByTestId('gallery-strip').locator('img').first().getAttribute('src');
const price = (page: Page) => details(page).locator('.product-price').innerText();
const stockNote = (page: Page) => details(page).getByTestId('stock').innerText();

describe('product variants on the product page', () => {
  const store = useStoreAndBrowser({
    env: { PAYMENT_PROVIDER: 'sandbox', CEP_SERVICE_URL: 'http://127.0.0.1:9' },
    prepare: async (db) => {
      for (const run of RUNS) await seedShirt(db, run.slug, run.sku);
    },
  });

  async function open(run: (typeof RUNS)[number], search = '') {
    const context = await store.browser.newContext({
      viewport: run.viewport,
      locale: 'pt-BR',
      javaScriptEnabled: run.javaScript,
      extraHTTPHeaders: { 'X-Forwarded-For': shopperAddress() },
    });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
    });
    await page.goto(`${store.server.url}/product/${run.slug}${search}`);
    if (run.javaScript) await waitForHydration(page);
    return { page, problems };
  }

  /** Presses a value's button: the page follows, reloaded without JavaScript, in place with. */
  async function choose(page: Page, run: (typeof RUNS)[number], option: string, name: string) {
    const button = value(page, option, name);
    if (run.javaScript) {
      await button.click();
      await expect.poll(() => value(page, option, name).getAttribute('aria-pressed')).toBe('true');
    } else {
      await Promise.all([page.waitForEvent('load'), button.click()]);
    }
  }

  const skuIn = (page: Page) => new URL(page.url()).searchParams.get('variante');

  describe.each(RUNS)('$name', (run) => {
    it('chooses a size and a colour: price, picture, stock and address follow', async () => {
      const { page, problems } = await open(run);
      // The first variant is sold out: the page opens on the first one in stock.
      expect(await picker(page).locator('legend').allInnerTexts()).toEqual([
        'Tamanho: P',
        'Cor: Azul',
      ]);
      expect(await price(page)).toBe('R$ 99,90');
      expect(await details(page).getByTestId('compare-at-price').count()).toBe(0);
      expect(await stockNote(page)).toBe('Últimas 5 unidades');
      expect(await mainPicture(page)).toContain(PRODUCT_PICTURE);
      // P/Preto is sold out: shown, named so, and not selectable.
      const soldOut = group(page, 'Cor').getByRole('button', { name: 'Preto, esgotado' });
      expect(await soldOut.isDisabled()).toBe(true);
      expect(await value(page, 'Tamanho', 'P').getAttribute('aria-pressed')).toBe('true');
      // axe runs in the page's JavaScript; the markup is the same without it.
      if (run.javaScript) expect(await seriousAxeViolations(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        run.viewport.width,
      );

      // With JavaScript the page holds every variant: a choice does not read the product again
      // (the layout around it may revalidate).
      const productReads: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (!url.pathname.endsWith('.data')) return;
        const routes = url.searchParams.get('_routes');
        if (routes === null || routes.split(',').includes('routes/store/product')) {
          productReads.push(request.url());
        }
      });
      if (run.javaScript) await page.evaluate(() => ((window as { kept?: true }).kept = true));
      await choose(page, run, 'Tamanho', 'M');
      expect(skuIn(page)).toBe(`${run.sku}-M-AZUL`);
      expect(await price(page)).toBe('R$ 129,90');
      expect(await details(page).getByTestId('product-price').innerText()).toMatch(
        /^De R\$ 159,90 por\s+R\$ 129,90/,
      );
      expect(await mainPicture(page)).toContain(M_BLUE_PICTURE);
      expect(await stockNote(page)).toBe('Últimas 4 unidades');
      // M/Preto is offered and in stock.
      expect(await value(page, 'Cor', 'Preto').isDisabled()).toBe(false);

      await choose(page, run, 'Cor', 'Preto');
      expect(skuIn(page)).toBe(`${run.sku}-M-PRETO`);
      expect(await price(page)).toBe('R$ 99,90');
      expect(await mainPicture(page)).toContain(M_BLACK_PICTURE);
      expect(await stockNote(page)).toBe('Últimas 6 unidades');
      // G/Preto is not offered.
      const missing = group(page, 'Tamanho').getByRole('button', { name: 'G, indisponível' });
      expect(await missing.isDisabled()).toBe(true);
      if (run.javaScript) expect(await seriousAxeViolations(page)).toEqual([]);
      // With JavaScript the page changed in place: the same document all along.
      if (run.javaScript) {
        expect(await page.evaluate(() => (window as { kept?: true }).kept)).toBe(true);
        expect(productReads).toEqual([]);
      }

      // Back: the previous choice again.
      await page.goBack();
      await expect.poll(() => skuIn(page)).toBe(`${run.sku}-M-AZUL`);
      await expect.poll(() => price(page)).toBe('R$ 129,90');
      expect(await mainPicture(page)).toContain(M_BLUE_PICTURE);
      expect(await value(page, 'Cor', 'Azul').getAttribute('aria-pressed')).toBe('true');
      // The fuzz crawl finds the parameter, with real SKUs, in the pickers' GET form.
      const path = `/product/${run.slug}`;
      const forms = scrapeForms(await page.content(), path).filter(
        (form) => form.method === 'get' && form.action === path,
      );
      expect(forms.flatMap((form) => form.fields)).toContainEqual([
        'variante',
        `${run.sku}-M-AZUL`,
      ]);
      expect(problems).toEqual([]);
    });

    it('opens on the first variant in stock for a SKU it does not know', async () => {
      const { page, problems } = await open(run, '?variante=NAO-EXISTE');
      expect(await price(page)).toBe('R$ 99,90');
      expect(await value(page, 'Tamanho', 'P').getAttribute('aria-pressed')).toBe('true');
      expect(await value(page, 'Cor', 'Azul').getAttribute('aria-pressed')).toBe('true');
      expect(problems).toEqual([]);
    });

    it('adds two variants, buys both, and each one’s stock falls', async () => {
      const { page, problems } = await open(run, `?variante=${run.sku}-M-AZUL`);
      const add = details(page).getByRole('button', { name: 'Adicionar ao carrinho' });
      if (run.javaScript) {
        await add.click();
        await page.getByTestId('cart-toast-message').waitFor();
        await choose(page, run, 'Tamanho', 'G');
      } else {
        await Promise.all([page.waitForURL(`${store.server.url}/cart`), add.click()]);
        await page.goto(`${store.server.url}/product/${run.slug}?variante=${run.sku}-G-AZUL`);
      }
      expect(skuIn(page)).toBe(`${run.sku}-G-AZUL`);
      await Promise.all([
        page.waitForURL(`${store.server.url}/checkout`),
        details(page).getByRole('button', { name: 'Comprar agora' }).click(),
      ]);
      // Two lines of one shirt, told apart by their values, in the summary and in the cart.
      const summary = page.getByRole('region', { name: 'Resumo do pedido' });
      expect(await summary.innerText()).toContain('Tamanho: M · Cor: Azul');
      expect(await summary.innerText()).toContain('Tamanho: G · Cor: Azul');
      await page.goto(`${store.server.url}/cart`);
      const lines = page.getByTestId('cart-line');
      expect((await lines.getByTestId('cart-line-options').allInnerTexts()).sort()).toEqual([
        'Tamanho: G · Cor: Azul',
        'Tamanho: M · Cor: Azul',
      ]);
      // Each line's link opens the product on its own variant.
      const links = await lines
        .getByRole('link')
        .evaluateAll((anchors) =>
          anchors.map((anchor) => new URL((anchor as HTMLAnchorElement).href).search),
        );
      expect([...new Set(links)].sort()).toEqual([
        `?variante=${run.sku}-G-AZUL`,
        `?variante=${run.sku}-M-AZUL`,
      ]);
      await page.goto(`${store.server.url}/checkout`);

      const form = page.locator('form[action="/checkout"]');
      const field = (label: string) => form.getByLabel(label, { exact: true });
      await field('Nome completo').fill('Maria Aparecida Teste');
      await field('E-mail').fill('maria.variantes@example.com');
      await field('CPF').fill(shopperCpf());
      await field('Telefone').fill('(11) 98765-4321');
      await field('CEP').fill('01310-100');
      await field('Rua').fill('Avenida Paulista');
      await field('Número').fill('1578');
      await field('Bairro').fill('Bela Vista');
      await field('Cidade').fill('São Paulo');
      await field('Estado').selectOption('SP');
      await Promise.all([
        page.waitForURL(/\/order-confirmation\?/),
        form.getByRole('button', { name: 'Finalizar pedido' }).click(),
      ]);
      await page.getByRole('heading', { level: 1, name: /^Pedido #/ }).waitFor();

      // Each variant bought lost one unit; the others kept theirs.
      const stockOf = async (size: string, colour: string) => {
        await page.goto(
          `${store.server.url}/product/${run.slug}?variante=${run.sku}-${size}-${colour}`,
        );
        return stockNote(page);
      };
      expect(await stockOf('M', 'AZUL')).toBe('Últimas 3 unidades');
      expect(await stockOf('G', 'AZUL')).toBe('Últimas 2 unidades');
      expect(await stockOf('M', 'PRETO')).toBe('Últimas 6 unidades');
      expect(await stockOf('P', 'AZUL')).toBe('Últimas 5 unidades');
      expect(problems).toEqual([]);
    });
  });
});
