import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { products } from '~/db/schema';
import {
  SAMPLE_CATALOGUE,
  SAMPLE_CATEGORIES,
  SAMPLE_PRODUCTS,
  SAMPLE_REVIEWS,
} from '~/flows/sample-store';

import { openPage, VIEWPORTS, waitForHydration } from '../support/browser';
import { useStoreAndBrowser } from '../support/fixtures';
import { seriousAxeViolations } from '../support/axe';
import { attribute, element, elements, textsOf } from '../support/html';
import { Visitor, visibleText } from '../support/visitor';

async function cardNames(page: Page): Promise<string[]> {
  return page.locator('[data-testid="product-card"] h3').allInnerTexts();
}

function countText(page: Page): Promise<string> {
  return page.getByTestId('catalog-count').innerText();
}

/** A field of the catalogue's filters (the header may have a search field of its own). */
function field(page: Page, label: string) {
  return page.locator('#catalog-filters').getByLabel(label, { exact: true });
}

/** The label of the order the sort field shows. */
function selectedSort(page: Page): Promise<string> {
  return field(page, 'Ordenar por').evaluate(
    (select: HTMLSelectElement) => select.selectedOptions[0]?.textContent ?? '',
  );
}

/** The results, busy while a navigation loads the next ones. */
const results = (page: Page) => page.getByRole('region', { name: 'Resultados' });

// Lazy images start loading after `load`; waiting for them keeps the next goto from cancelling
// one, which would be reported as a failed request.
const IDLE = { waitUntil: 'networkidle' } as const;

// Ties (the rug costs what the headphones do) go by id, as the catalogue's order does.
const byPrice = [...SAMPLE_CATALOGUE].sort((a, b) => a.priceCents - b.priceCents);
const AUDIO_ID = SAMPLE_CATEGORIES.find((category) => category.name === 'Áudio')!.id;

describe('catalogue /products', () => {
  const store = useStoreAndBrowser();

  it('lists the whole catalogue with the count, and filters and sorts from the URL', async () => {
    const { page, problems } = await openPage(store.browser, `${store.server.url}/products`);
    expect(await page.title()).toBe('Produtos | TechStore');
    expect(await countText(page)).toBe('10 produtos encontrados');
    expect(await cardNames(page)).toEqual(SAMPLE_CATALOGUE.map((product) => product.name));

    await page.goto(`${store.server.url}/products?q=FONE&ordem=menor-preco`, IDLE);
    expect(await cardNames(page)).toEqual([
      'Headset Gamer com Microfone',
      'Fone de Ouvido Bluetooth Pro',
    ]);
    expect(await field(page, 'Buscar').inputValue()).toBe('FONE');
    expect(await field(page, 'Ordenar por').inputValue()).toBe('menor-preco');

    // "audio" is in a description ("Áudio surround"), without the accent.
    await page.goto(`${store.server.url}/products?q=audio`, IDLE);
    expect(await cardNames(page)).toEqual(['Headset Gamer com Microfone']);

    await page.goto(`${store.server.url}/products?min=200&max=400&ordem=maior-preco`, IDLE);
    expect(await cardNames(page)).toEqual(
      byPrice
        .filter((product) => product.priceCents >= 20000 && product.priceCents <= 40000)
        .reverse()
        .map((product) => product.name),
    );

    await page.goto(`${store.server.url}/products?q=mouse`, IDLE);
    expect(await countText(page)).toBe('1 produto encontrado');

    await page.goto(`${store.server.url}/products?q=nada+assim`, IDLE);
    expect(await countText(page)).toBe('Nenhum produto encontrado');
    expect(await page.getByText('Nenhum produto encontrado').isVisible()).toBe(true);
    // Nothing to show in a grid or a list.
    expect(await page.getByRole('navigation', { name: 'Visualização' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Ver todos os produtos' }).click();
    await page.waitForURL(`${store.server.url}/products`);
    await expect.poll(() => countText(page)).toBe('10 produtos encontrados');
    expect(await page.getByRole('link', { name: 'Grade' }).isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('puts what is typed in the form into the URL; Back restores it; a shared URL reproduces it', async () => {
    const { page, problems } = await openPage(store.browser, `${store.server.url}/products`);
    await field(page, 'Buscar').fill('fone');
    await page.waitForURL(/\?q=fone$/);
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="product-card"]').length === 2,
    );

    await field(page, 'Ordenar por').selectOption({ label: 'Maior preço' });
    await page.waitForURL(/\?q=fone&ordem=maior-preco$/);
    // The sorted results are in before the next field is typed in.
    await expect
      .poll(() => cardNames(page))
      .toEqual(['Fone de Ouvido Bluetooth Pro', 'Headset Gamer com Microfone']);
    await field(page, 'Preço mínimo (R$)').fill('250');
    await page.waitForURL((url) => url.searchParams.get('min') === '250');
    await expect.poll(() => cardNames(page)).toEqual(['Fone de Ouvido Bluetooth Pro']);

    await page.goBack();
    await page.waitForURL(/\?q=fone&ordem=maior-preco$/);
    await expect
      .poll(() => cardNames(page))
      .toEqual(['Fone de Ouvido Bluetooth Pro', 'Headset Gamer com Microfone']);
    expect(await field(page, 'Preço mínimo (R$)').inputValue()).toBe('');

    await page.goBack();
    await page.waitForURL(/\?q=fone$/);
    await expect.poll(() => selectedSort(page)).toBe('Mais relevantes');

    const shared = await store.browser.newContext();
    const other = await shared.newPage();
    await other.goto(`${store.server.url}/products?q=fone&ordem=maior-preco&min=250`, IDLE);
    expect(await cardNames(other)).toEqual(['Fone de Ouvido Bluetooth Pro']);
    expect(await field(other, 'Preço mínimo (R$)').inputValue()).toBe('250');
    await shared.close();
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('works as a plain form before JavaScript', async () => {
    const context = await store.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${store.server.url}/products`, IDLE);
    await field(page, 'Buscar').fill('mouse');
    await field(page, 'Categoria').selectOption({ label: 'Informática' });
    await field(page, 'Preço máximo (R$)').fill('1.000,00');
    await page.getByRole('button', { name: 'Aplicar' }).click();
    await page.waitForURL(/q=mouse/);
    const url = new URL(page.url());
    expect(url.searchParams.get('max')).toBe('1.000,00');
    expect(await cardNames(page)).toEqual(['Mouse Sem Fio Ergonômico']);

    await page.getByRole('link', { name: 'Limpar filtros' }).click();
    await page.waitForURL(`${store.server.url}/products`);
    expect(await page.locator('[data-testid="product-card"]').count()).toBe(
      SAMPLE_CATALOGUE.length,
    );
    await context.close();
  });

  it('shows the results first on a phone, with the filters in a sheet that applies them', async () => {
    const { page, problems } = await openPage(
      store.browser,
      `${store.server.url}/products`,
      VIEWPORTS.mobile,
    );
    const open = page.getByRole('button', { name: 'Filtrar e ordenar' });
    const sheet = page.locator('#catalog-filters');
    // The sheet is closed, so the form is out of sight, and the first products are in view.
    expect(await sheet.isVisible()).toBe(false);
    expect(await field(page, 'Buscar').isVisible()).toBe(false);
    const firstCard = await page.getByTestId('product-card').first().boundingBox();
    expect(firstCard!.y).toBeLessThan(VIEWPORTS.mobile.height);
    expect(firstCard!.y + 120).toBeLessThan(VIEWPORTS.mobile.height);

    await open.click();
    const dialog = page.getByRole('dialog', { name: 'Filtrar e ordenar' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await page.evaluate(() => !!document.activeElement?.closest('#catalog-filters'))).toBe(
      true,
    );
    // The sheet fits the phone and is axe-clean while open.
    const box = await dialog.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(VIEWPORTS.mobile.width);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Escape closes it and gives focus back to the button.
    await page.keyboard.press('Escape');
    await expect.poll(() => sheet.isVisible()).toBe(false);
    expect(await open.evaluate((button) => button === document.activeElement)).toBe(true);

    await page.clock.install();
    await open.click();
    await field(page, 'Categoria').selectOption({ label: 'Áudio' });
    await field(page, 'Preço máximo (R$)').fill('250');
    // Nothing moves behind the sheet before 'Aplicar', not even once the pause after typing (0.5 s
    // of the page's clock, run at once) is over.
    await page.clock.runFor(1_000);
    expect(page.url()).toBe(`${store.server.url}/products`);
    expect(await results(page).getAttribute('aria-busy')).toBe('false');
    await dialog.getByRole('button', { name: 'Aplicar' }).click();
    await page.waitForURL(`${store.server.url}/products?categoria=audio&max=250`);
    await expect
      .poll(() => cardNames(page))
      .toEqual(['Caixa de Som Portátil à Prova d’Água', 'Headset Gamer com Microfone']);
    expect(await sheet.isVisible()).toBe(false);
    expect(await countText(page)).toBe('2 produtos encontrados');
    expect(await open.innerText()).toContain('2');
    expect(await open.getAttribute('aria-label')).toBeNull();
    expect(await page.getByRole('button', { name: /2 filtros ativos/ }).count()).toBe(1);

    // 'Limpar filtros' from the sheet shows the whole catalogue again, the sheet closed.
    await open.click();
    await dialog.getByRole('link', { name: 'Limpar filtros' }).click();
    await page.waitForURL(`${store.server.url}/products`);
    await expect.poll(() => sheet.isVisible()).toBe(false);
    await expect.poll(() => cardNames(page)).toHaveLength(SAMPLE_CATALOGUE.length);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('finds the fones from the header on a phone, and says what a near miss meant', async () => {
    const { page, problems } = await openPage(store.browser, store.server.url, VIEWPORTS.mobile);
    const search = async (text: string) => {
      await page.getByTestId('phone-search-toggle').click();
      const input = page.getByRole('searchbox', { name: 'Buscar produtos' });
      await expect.poll(() => input.isVisible()).toBe(true);
      await input.fill(text);
      await input.press('Enter');
      await page.waitForURL(`${store.server.url}/products?q=${text}`);
    };

    // The singular and the plural find the same products: the headphones first, the headset
    // whose name holds 'fone' inside a word after them.
    const fones = ['Fone de Ouvido Bluetooth Pro', 'Headset Gamer com Microfone'];
    await search('fone');
    await expect.poll(() => cardNames(page)).toEqual(fones);
    await search('fones');
    await expect.poll(() => countText(page)).toBe('2 produtos encontrados');
    expect(await cardNames(page)).toEqual(fones);
    // A word in the plural typed with a capital.
    await search('Teclados');
    await expect.poll(() => cardNames(page)).toEqual(['Teclado Mecânico RGB']);

    await search('tecaldo');
    await expect.poll(() => countText(page)).toBe('Nenhum produto encontrado');
    const suggestion = page.getByTestId('catalog-suggestion');
    expect(await suggestion.innerText()).toBe('Você quis dizer teclado?');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await suggestion.getByRole('link', { name: 'teclado' }).click();
    await page.waitForURL(`${store.server.url}/products?q=teclado`);
    await expect.poll(() => cardNames(page)).toEqual(['Teclado Mecânico RGB']);
    expect(await page.getByTestId('catalog-suggestion').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('opens the sheet and applies it on a phone without JavaScript', async () => {
    const context = await store.browser.newContext({
      javaScriptEnabled: false,
      viewport: VIEWPORTS.mobile,
    });
    const page = await context.newPage();
    await page.goto(`${store.server.url}/products`, IDLE);
    expect(await field(page, 'Preço mínimo (R$)').isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Filtrar e ordenar' }).click();
    await field(page, 'Preço mínimo (R$)').fill('300');
    await field(page, 'Ordenar por').selectOption({ label: 'Menor preço' });
    await page.getByRole('button', { name: 'Aplicar' }).click();
    await page.waitForURL(/min=300/);
    expect(new URL(page.url()).searchParams.get('ordem')).toBe('menor-preco');
    expect(await cardNames(page)).toEqual(
      byPrice.filter((product) => product.priceCents >= 30000).map((product) => product.name),
    );
    await context.close();
  });

  it('filters by option value in stock, with counts, without JavaScript at 360 px', async () => {
    const context = await store.browser.newContext({
      javaScriptEnabled: false,
      viewport: VIEWPORTS.mobile,
    });
    const page = await context.newPage();
    await page.goto(`${store.server.url}/products`, IDLE);
    // The rug's sizes differ in price: 'a partir de' the lowest; the shirt is chosen on its page.
    const rug = page
      .getByTestId('product-card')
      .filter({ has: page.getByRole('heading', { name: 'Tapete Geométrico para Sala' }) });
    expect(await rug.getByTestId('card-price').innerText()).toBe('a partir de R$ 299,90');
    const shirt = page
      .getByTestId('product-card')
      .filter({ has: page.getByRole('heading', { name: 'Camiseta Básica de Algodão' }) });
    expect(await shirt.getByTestId('card-compare-at').innerText()).toBe('De R$ 99,90');
    expect(await shirt.getByRole('link', { name: /^Ver opções/ }).count()).toBe(1);
    expect(await shirt.locator('img').getAttribute('src')).toMatch(/camiseta-basica-branca\.svg/);

    await page.getByRole('button', { name: 'Filtrar e ordenar' }).click();
    const sizes = page.locator('#catalog-filters').getByRole('group', { name: 'Tamanho' });
    // Only what the catalogue has in stock, each with its count: a product per value here.
    expect(await sizes.getByRole('checkbox').count()).toBe(7);
    await sizes.getByRole('checkbox', { name: 'G (1)', exact: true }).check();
    await page
      .locator('#catalog-filters')
      .getByRole('group', { name: 'Cor' })
      .getByRole('checkbox', { name: 'Azul (1)', exact: true })
      .check();
    await page.getByRole('button', { name: 'Aplicar' }).click();
    await page.waitForURL(/opcao=/);
    expect(new URL(page.url()).searchParams.getAll('opcao')).toEqual(['Tamanho:G', 'Cor:Azul']);
    expect(await cardNames(page)).toEqual(['Camiseta Básica de Algodão']);
    expect(await page.getByRole('list', { name: 'Filtros em uso' }).innerText()).toContain(
      'Tamanho: G',
    );

    // GG in blue is sold out: nothing, and the chosen GG stays offered to be taken off.
    await page.goto(`${store.server.url}/products?opcao=Tamanho:GG&opcao=Cor:Azul`, IDLE);
    expect(await countText(page)).toBe('Nenhum produto encontrado');
    await page.getByRole('link', { name: 'Remover filtro: Cor: Azul' }).click();
    await page.waitForURL(`${store.server.url}/products?opcao=Tamanho%3AGG`);
    expect(await cardNames(page)).toEqual(['Camiseta Básica de Algodão']);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      VIEWPORTS.mobile.width,
    );
    await context.close();
  });

  it('filters by option value with JavaScript at 360 px: the sheet applies the boxes ticked', async () => {
    const { page, problems } = await openPage(
      store.browser,
      `${store.server.url}/products?q=camiseta`,
      VIEWPORTS.mobile,
    );
    const open = page.getByRole('button', { name: 'Filtrar e ordenar' });
    await open.click();
    const dialog = page.getByRole('dialog', { name: 'Filtrar e ordenar' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    const colours = dialog.getByRole('group', { name: 'Cor' });
    expect(await colours.locator('label').allTextContents()).toEqual([
      'Branca (1)',
      'Preta (1)',
      'Azul (1)',
    ]);
    await colours.getByRole('checkbox', { name: 'Preta (1)', exact: true }).check();
    await dialog
      .getByRole('group', { name: 'Tamanho' })
      .getByRole('checkbox', { name: 'P (1)', exact: true })
      .check();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Aplicar' }).click();
    // P in black is the shirt's other sold-out combination.
    await expect.poll(() => countText(page)).toBe('Nenhum produto encontrado');
    expect(new URL(page.url()).searchParams.getAll('opcao')).toEqual(['Tamanho:P', 'Cor:Preta']);
    expect(await open.innerText()).toContain('2');

    await page.getByRole('link', { name: 'Remover filtro: Tamanho: P' }).click();
    await expect.poll(() => countText(page)).toBe('1 produto encontrado');
    expect(new URL(page.url()).searchParams.getAll('opcao')).toEqual(['Cor:Preta']);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('shows the filters in use as chips a tap removes, at 360 px', async () => {
    const { page, problems } = await openPage(
      store.browser,
      `${store.server.url}/products?categoria=${AUDIO_ID}&min=100&q=fone`,
      VIEWPORTS.mobile,
    );
    const chips = page.getByRole('list', { name: 'Filtros em uso' });
    expect(await chips.getByRole('link').allInnerTexts()).toEqual([
      'Busca: “fone”',
      'Áudio',
      'A partir de R$ 100,00',
      'Limpar tudo',
    ]);
    await chips.getByRole('link', { name: 'Remover filtro: Áudio' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.has('categoria')).toBe(false);
    expect(new URL(page.url()).searchParams.get('min')).toBe('100');
    await expect
      .poll(() => chips.getByRole('link').allInnerTexts())
      .toEqual(['Busca: “fone”', 'A partir de R$ 100,00', 'Limpar tudo']);
    await expect(seriousAxeViolations(page)).resolves.toEqual([]);

    await chips.getByRole('link', { name: 'Limpar tudo' }).click();
    await expect.poll(() => cardNames(page)).toHaveLength(SAMPLE_CATALOGUE.length);
    expect(await chips.count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('keeps the filters in a column beside the results on a desktop', async () => {
    const { page, problems } = await openPage(
      store.browser,
      `${store.server.url}/products`,
      VIEWPORTS.desktop,
    );
    expect(await page.getByRole('button', { name: 'Filtrar e ordenar' }).isVisible()).toBe(false);
    expect(await page.getByRole('dialog').count()).toBe(0);
    const form = await page.getByRole('search', { name: 'Filtrar produtos' }).boundingBox();
    const results = await page.getByTestId('catalog-results').boundingBox();
    expect(form!.x + form!.width).toBeLessThanOrEqual(results!.x);
    expect(form!.y).toBeLessThan(VIEWPORTS.desktop.height);
    expect(results!.y).toBeLessThan(VIEWPORTS.desktop.height);

    // A change applies at once there.
    await field(page, 'Categoria').selectOption({ label: 'Acessórios' });
    await page.waitForURL(`${store.server.url}/products?categoria=acessorios`);
    await expect
      .poll(() => cardNames(page))
      .toEqual(['Carregador Rápido USB-C 65 W', 'Smartwatch Fitness']);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it.each(Object.entries(VIEWPORTS))(
    'names a search in the heading and the title, ranked by relevance (%s)',
    async (_name, viewport) => {
      const { page, problems } = await openPage(
        store.browser,
        `${store.server.url}/products?q=fone`,
        viewport,
      );
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(
        'Resultados para “fone”',
      );
      expect(await page.title()).toBe('Resultados para “fone” | TechStore');

      // "usb" names the charger and is only in the headphones' description: relevance puts
      // the charger first although the headphones are newer.
      await page.goto(`${store.server.url}/products?q=usb`, IDLE);
      // The sort's select navigates only once React handles its change (a loaded machine may
      // still be hydrating after the network is idle).
      await waitForHydration(page);
      expect(await cardNames(page)).toEqual([
        'Carregador Rápido USB-C 65 W',
        'Fone de Ouvido Bluetooth Pro',
      ]);
      if (viewport.width < 1024) {
        await page.getByRole('button', { name: 'Filtrar e ordenar' }).click();
      }
      expect(await selectedSort(page)).toBe('Mais relevantes');
      await field(page, 'Ordenar por').selectOption({ label: 'Mais recentes' });
      if (viewport.width < 1024) await page.getByRole('button', { name: 'Aplicar' }).click();
      await page.waitForURL(`${store.server.url}/products?q=usb&ordem=recentes`);
      await expect
        .poll(() => cardNames(page))
        .toEqual(['Fone de Ouvido Bluetooth Pro', 'Carregador Rápido USB-C 65 W']);

      // Without a search there is nothing to rank: the heading is the catalogue's and
      // relevance is not offered.
      await page.goto(`${store.server.url}/products`, IDLE);
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Produtos');
      expect(await page.title()).toBe('Produtos | TechStore');
      const labels = await field(page, 'Ordenar por').locator('option').allTextContents();
      expect(labels).toEqual(['Mais recentes', 'Menor preço', 'Maior preço', 'Nome (A-Z)']);
      expect(problems).toEqual([]);
      await page.context().close();
    },
  );

  /** The catalogue page over HTTP: the server's answer, as the first visit gets it. */
  async function catalogue(path: string) {
    const page = await new Visitor(store.server.url).get(path);
    return {
      status: page.status,
      location: page.location,
      cards: elements(page.text, '[data-testid="product-card"]').map(
        (card) => textsOf(card, 'h3')[0],
      ),
      notices: elements(page.text, '[data-testid="catalog-notices"]'),
      /** The value a filter field shows: an input's value, or a select's chosen option. */
      value: (name: string) => {
        const filters = element(page.text, '[id="catalog-filters"]');
        const select = elements(filters, `select[name="${name}"]`)[0];
        if (select) return attribute(elements(select, 'option[selected]')[0] ?? '', 'value');
        return attribute(element(filters, `input[name="${name}"]`), 'value');
      },
    };
  }

  it('filters by a category slug and sends old id links there with a 301', async () => {
    const audio = await catalogue('/products?categoria=audio');
    expect(audio.cards).toEqual(
      SAMPLE_PRODUCTS.filter((product) => product.categoryId === AUDIO_ID).map((p) => p.name),
    );
    expect(audio.value('categoria')).toBe('audio');
    expect(audio.notices.map(visibleText)).toEqual(['']);

    const old = await catalogue(`/products?q=fone&categoria=${AUDIO_ID}&max=500`);
    expect(old.status).toBe(301);
    expect(old.location).toBe('/products?q=fone&categoria=audio&max=500');
    const byId = await catalogue(`/products?categoria=${AUDIO_ID}`);
    expect([byId.status, byId.location]).toEqual([301, '/products?categoria=audio']);
  });

  it('answers bad values with 200 and a notice saying what was ignored', async () => {
    const bad = await catalogue(
      '/products?min=abc&max=-1&ordem=barato&pagina=0&categoria=nenhuma&vista=x',
    );
    expect(bad.status).toBe(200);
    const [notices = ''] = bad.notices;
    expect(attribute(notices, 'role')).toBe('status');
    expect(textsOf(notices, 'li')).toEqual([
      'A categoria escolhida não foi encontrada; mostrando todas as categorias.',
      'O preço mínimo “abc” não é um número e foi ignorado.',
      'O preço máximo “-1” não pode ser negativo e foi ignorado.',
      'A ordem “barato” não existe; mostrando os mais recentes.',
      'A página “0” não existe; mostrando a página 1.',
      'A visualização “x” não existe; mostrando em grade.',
    ]);
    expect(bad.cards).toHaveLength(SAMPLE_CATALOGUE.length);

    const swapped = await catalogue('/products?min=1.000&max=10,5');
    expect(swapped.notices.map(visibleText)).toEqual([
      'O preço mínimo era maior que o máximo; os dois foram trocados.',
    ]);
    expect(swapped.value('min')).toBe('10,50');
    expect(swapped.value('max')).toBe('1000');
    // All but the monitor (R$ 1.234,56).
    expect(swapped.cards).toHaveLength(SAMPLE_CATALOGUE.length - 1);

    const late = await catalogue('/products?pagina=7');
    expect(late.status).toBe(200);
    expect(late.notices.map(visibleText)).toEqual([
      'A página 7 não existe; mostrando a última página (1).',
    ]);
  });

  it('switches between grid and list, keeping the filters', async () => {
    const { page, problems } = await openPage(store.browser, `${store.server.url}/products?q=fone`);
    const results = page.getByTestId('catalog-results');
    expect(await results.getAttribute('data-view')).toBe('grid');
    const grid = page.getByRole('link', { name: 'Grade' });
    expect(await grid.getAttribute('aria-current')).toBe('true');

    await page.getByRole('link', { name: 'Lista' }).click();
    await page.waitForURL(/\?q=fone&vista=lista$/);
    await expect.poll(() => results.getAttribute('data-view')).toBe('list');
    const [first, second] = await page.locator('[data-testid="product-card"]').all();
    const [a, b] = [await first!.boundingBox(), await second!.boundingBox()];
    // One product per row, its picture on the left of its text.
    expect(b!.y).toBeGreaterThanOrEqual(a!.y + a!.height);
    const image = await first!.locator('img').boundingBox();
    const title = await first!.locator('h3').boundingBox();
    expect(image!.x + image!.width).toBeLessThanOrEqual(title!.x);

    // Filtering from the list view stays in the list view.
    await field(page, 'Ordenar por').selectOption('nome');
    await page.waitForURL((url) => url.searchParams.get('ordem') === 'nome');
    expect(new URL(page.url()).searchParams.get('vista')).toBe('lista');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  // One case per page, each with its own time: six pages with axe in one case outlasted the
  // timeout on a loaded machine.
  it.each(
    Object.entries(VIEWPORTS).flatMap(([name, viewport]) =>
      [
        '/products',
        '/products?q=fone',
        '/products?q=o',
        '/products?vista=lista',
        '/products?min=x',
        '/products?q=nada+assim',
      ].map((path) => [name, path, viewport] as const),
    ),
  )('fits a %s screen at %s and passes axe', async (_name, path, viewport) => {
    const { page, problems } = await openPage(
      store.browser,
      `${store.server.url}${path}`,
      viewport,
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      viewport.width,
    );
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('shows stock badges, real ratings only, and adds to the cart from a card', async () => {
    const { page, problems } = await openPage(store.browser, `${store.server.url}/products`);
    const card = (name: string) =>
      page.getByTestId('product-card').filter({ has: page.getByRole('heading', { name }) });
    const byStock = (stock: number) => SAMPLE_PRODUCTS.find((p) => p.stockQuantity === stock)!;

    expect(await card(byStock(75).name).getByTestId('stock-badge').innerText()).toBe('Novo');
    expect(await card(byStock(5).name).getByTestId('stock-badge').innerText()).toBe(
      'Últimas unidades',
    );
    expect(await card(byStock(40).name).getByTestId('stock-badge').count()).toBe(0);
    const soldOut = card(byStock(0).name);
    expect(await soldOut.getByTestId('stock-badge').innerText()).toBe('Esgotado');
    expect(await soldOut.getByRole('button').count()).toBe(0);

    // Ratings shown are the reviews' own; no card invents one.
    for (const product of SAMPLE_PRODUCTS) {
      const given = SAMPLE_REVIEWS.filter((review) => review.productId === product.id);
      const rating = card(product.name).getByText(/^Avaliação /);
      if (given.length === 0) {
        expect(await rating.count(), product.name).toBe(0);
        continue;
      }
      const average = given.reduce((sum, review) => sum + review.rating, 0) / given.length;
      const reviews = given.length === 1 ? '1 avaliação' : `${given.length} avaliações`;
      expect(await rating.innerText()).toBe(
        `Avaliação ${average.toFixed(1).replace('.', ',')} de 5 (${reviews})`,
      );
    }

    const fone = card('Fone de Ouvido Bluetooth Pro');
    await fone.getByRole('button', { name: /Adicionar ao carrinho/ }).click();
    await expect
      .poll(() => page.getByTestId('card-feedback').innerText())
      .toMatch(/adicionado ao (seu )?carrinho/i);
    await fone.getByRole('link', { name: 'Fone de Ouvido Bluetooth Pro' }).click();
    await page.waitForURL(`${store.server.url}/product/fone-de-ouvido-bluetooth-pro`);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe('catalogue pagination', () => {
  // 10 sample products and 22 more, 4 to a page: 8 pages. Reviews switched off.
  const store = useStoreAndBrowser({
    settings: { products_per_page: 4, enable_reviews: false },
    prepare: async (db) => {
      await db.insert(products).values(
        Array.from({ length: 22 }, (_, index) => ({
          name: `Adaptador ${String(index + 1).padStart(2, '0')}`,
          priceCents: 1000 + index,
          stockQuantity: 20,
          createdAt: new Date(Date.UTC(2020, 0, 1 + index)),
        })),
      );
    },
  });

  it('pages with products_per_page, keeping the filters in every link', async () => {
    const { page, problems } = await openPage(
      store.browser,
      `${store.server.url}/products?q=adaptador&ordem=nome`,
      VIEWPORTS.mobile,
    );
    expect(await countText(page)).toBe('22 produtos encontrados');
    expect(await cardNames(page)).toEqual([
      'Adaptador 01',
      'Adaptador 02',
      'Adaptador 03',
      'Adaptador 04',
    ]);
    const pager = page.getByRole('navigation', { name: 'Paginação' });
    expect(await pager.getByRole('link', { name: 'Página 1' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(await pager.getByRole('link', { name: 'Anterior' }).count()).toBe(0);

    await pager.getByRole('link', { name: 'Próxima' }).click();
    await page.waitForURL(/\?q=adaptador&ordem=nome&pagina=2$/);
    await expect
      .poll(() => cardNames(page))
      .toEqual(['Adaptador 05', 'Adaptador 06', 'Adaptador 07', 'Adaptador 08']);

    await pager.getByRole('link', { name: 'Página 6' }).click();
    await page.waitForURL(/pagina=6$/);
    await expect.poll(() => cardNames(page)).toEqual(['Adaptador 21', 'Adaptador 22']);
    expect(await pager.getByRole('link', { name: 'Próxima' }).count()).toBe(0);
    expect(await pager.getByRole('link', { name: 'Página 6' }).getAttribute('aria-current')).toBe(
      'page',
    );

    await page.goBack();
    await page.waitForURL(/pagina=2$/);
    await expect
      .poll(() => cardNames(page))
      .toEqual(['Adaptador 05', 'Adaptador 06', 'Adaptador 07', 'Adaptador 08']);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      VIEWPORTS.mobile.width,
    );

    // The whole catalogue: 32 products, 8 pages, with a gap in the page numbers; the sample
    // products' reviews stay hidden while the store has reviews switched off.
    await page.goto(`${store.server.url}/products`, IDLE);
    expect(await cardNames(page)).toEqual(
      SAMPLE_PRODUCTS.slice(0, 4).map((product) => product.name),
    );
    expect(await page.getByText(/^Avaliação /).count()).toBe(0);
    await page.goto(`${store.server.url}/products?pagina=8`, IDLE);
    expect(await cardNames(page)).toHaveLength(4);
    expect(await pager.innerText()).toContain('…');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
