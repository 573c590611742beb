import { describe, expect, it } from 'vitest';

import { defaultSettings, derivedColors } from '~/modules/settings';

import { openPage, VIEWPORTS } from '../support/browser';
import { useStoreAndBrowser } from '../support/fixtures';

describe('storefront smoke test', () => {
  const store = useStoreAndBrowser();

  it.each(Object.entries(VIEWPORTS))(
    'shows the 8 sample products on / (%s)',
    async (_name, viewport) => {
      const { page, problems } = await openPage(store.browser, store.server.url, viewport);

      await expect(page.title()).resolves.toBe('TechStore');
      expect(await page.getByRole('link', { name: 'TechStore: início' }).isVisible()).toBe(true);
      const cards = page.getByTestId('product-card');
      expect(await cards.count()).toBe(8);
      expect(await cards.filter({ hasText: 'Monitor 27" Full HD' }).innerText()).toContain(
        'R$ 1.234,56',
      );
      for (const image of await page.locator('[data-testid="product-card"] img').all()) {
        await image.scrollIntoViewIfNeeded();
        expect(
          await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
        ).toBe(true);
      }
      // Nothing horizontal to scroll on a phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      // Scripts ran under the Content-Security-Policy without a single violation.
      expect(problems).toEqual([]);
      await page.context().close();
    },
  );

  it('is themed by the default settings, with the two chosen fonts loaded', async () => {
    const { page } = await openPage(store.browser, store.server.url);
    const style = await page.evaluate(() => {
      const price = document.querySelector('.product-price')!;
      const heading = document.querySelector('h1')!;
      return {
        primary: getComputedStyle(document.documentElement).getPropertyValue(
          '--store-primary-color',
        ),
        price: getComputedStyle(price).color,
        bodyFont: getComputedStyle(document.body).fontFamily,
        headingFont: getComputedStyle(heading).fontFamily,
      };
    });
    expect(style.primary).toBe('#3b82f6');
    // Prices follow the primary colour, in the nearest shade that reads on a card (ADR 026).
    const price = derivedColors(defaultSettings()).product_price_color;
    expect(price).not.toBe('#3b82f6');
    const [red, green, blue] = [1, 3, 5].map((at) => parseInt(price.slice(at, at + 2), 16));
    expect(style.price).toBe(`rgb(${red}, ${green}, ${blue})`);
    expect(style.bodyFont).toContain('Roboto');
    expect(style.headingFont).toContain('Montserrat');
    const loaded = await page.evaluate(async () => {
      await document.fonts.ready;
      return [...document.fonts]
        .filter((font) => font.status === 'loaded')
        .map((font) => font.family);
    });
    // Their local stand-ins ('Roboto Fallback') load too when the page is drawn before the files.
    const webFonts = loaded
      .map((family) => family.replaceAll('"', ''))
      .filter((family) => !family.endsWith(' Fallback'));
    expect(new Set(webFonts)).toEqual(new Set(['Roboto', 'Montserrat']));
    await page.context().close();
  });
});
