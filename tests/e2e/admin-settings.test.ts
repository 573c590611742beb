import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';

import { defaultSettings } from '~/modules/settings';
import { SETTINGS_FORM_FIELDS, settingsFormValues } from '~/modules/settings/index.admin';

import { adminVisitor, signedInPage, withAdmin } from '../support/admin';
import { seriousAxeViolations } from '../support/axe';
import { VIEWPORTS } from '../support/browser';
import { useStoreAndBrowser } from '../support/fixtures';
import { publicFileSrc } from '../support/sample';
import { Visitor, visibleText } from '../support/visitor';

// Secrets given to the server; no page may ever contain them.
const SECRETS = {
  PAYMENT_GATEWAY_SECRET_KEY: 'gw-segredo-7f3a9c',
  UTMIFY_API_TOKEN: 'utmify-segredo-2b8e41',
  SMTP_URL: 'smtp://loja:smtp-segredo-5d0c77@127.0.0.1:2525',
};

const store = useStoreAndBrowser({
  prepare: withAdmin(),
  env: {
    ...SECRETS,
    PAYMENT_PROVIDER: 'gateway',
    // Never called: no test here checks out.
    PAYMENT_GATEWAY_URL: 'http://127.0.0.1:9/api',
    PUBLIC_URL: 'https://loja.test',
  },
});

const VIEWPORT_CASES = Object.entries(VIEWPORTS);

/** The whole settings form as the page sends it for these settings (unticked boxes send nothing). */
function settingsForm(changes: Record<string, string> = {}): [string, string][] {
  const values = { ...settingsFormValues(defaultSettings()), ...changes };
  return SETTINGS_FORM_FIELDS.filter(
    (spec) => spec.kind !== 'checkbox' || values[spec.key] !== '',
  ).map((spec) => [spec.key, values[spec.key] ?? '']);
}

/** Problems apart from the 4xx answers some steps provoke on purpose (refused forms). */
function unexpected(problems: string[]): string[] {
  return problems.filter((problem) => !/HTTP 4\d\d|status of 4\d\d/.test(problem));
}

/** The settings page, signed in (the form's journey is admin-auth.test.ts's). */
function settingsPage(viewport: { width: number; height: number }, path = '') {
  return signedInPage(store.browser, store.server.url, `/admin/settings${path}`, viewport);
}

async function toast(page: Page, message: string) {
  await page.getByRole('status').getByText(message, { exact: true }).last().waitFor();
}

async function fitsWidth(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

async function homeHeader() {
  const home = await new Visitor(store.server.url).get('/');
  expect(home.status).toBe(200);
  return home.text;
}

describe('the settings page over HTTP', () => {
  it('is only for signed-in admins', async () => {
    const stranger = new Visitor(store.server.url);
    const page = await stranger.get('/admin/settings');
    expect(page.status).toBe(302);
    expect(page.location).toMatch(/^\/admin\/login/);

    const post = await stranger.post('/admin/settings', settingsForm({ store_name: 'Invadida' }));
    expect(post.status).toBe(302);
    const preview = await stranger.post('/admin/settings/preview', { page: 'sobre' });
    expect(preview.status).toBe(302);
    expect(await homeHeader()).not.toContain('Invadida');
  });

  it('never sends a secret to the browser, only whether it is configured', async () => {
    const admin = await adminVisitor(store.server.url);
    const page = await admin.get('/admin/settings?aba=avancado');
    expect(page.status).toBe(200);
    const data = await admin.get('/admin/settings.data');
    expect(data.status).toBe(200);
    for (const text of [page.text, data.text]) {
      for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
      expect(text).not.toContain('smtp-segredo');
    }
    const text = visibleText(page.text);
    expect(text).toContain('Provedor de pagamento ativo: Gateway de pagamento');
    // Checkout asks for PIX only: the switches for other ways to pay are said to do nothing.
    expect(text).toContain('O checkout recebe: PIX. Ligar abaixo uma forma de pagamento');
    expect(text).toMatch(/PAYMENT_GATEWAY_SECRET_KEY · [^·]+ configurado/);
    expect(text).toMatch(/UTMIFY_API_TOKEN · [^·]+ configurado/);
    expect(text).toMatch(/SMTP_URL · [^·]+ configurado/);
    // This store pays through the gateway: Mercado Pago's two secrets are the only ones unset.
    expect(text).toMatch(/MERCADOPAGO_ACCESS_TOKEN · [^·]+ não configurado/);
    expect(text).toMatch(/MERCADOPAGO_WEBHOOK_SECRET · [^·]+ não configurado/);
    expect(text.split('não configurado')).toHaveLength(3);
  });

  it('refuses a bad value with its pt-BR message, keeps what was typed and saves nothing', async () => {
    const admin = await adminVisitor(store.server.url);
    const answer = await admin.post(
      '/admin/settings',
      settingsForm({
        store_name: 'Loja Que Não Salva',
        primary_color: 'azul',
        pix_merchant_city: 'Cidade com nome longo demais',
        default_shipping_cost_cents: 'dez',
      }),
    );
    expect(answer.status).toBe(400);
    const text = visibleText(answer.text);
    expect(text).toContain('Cor inválida: use o formato #RRGGBB (por exemplo #3b82f6).');
    expect(text).toContain('Use no máximo 15 caracteres.');
    expect(text).toContain('Valor inválido: informe em reais, como 10,00.');
    expect(text).toContain('Confira os campos marcados: nada foi salvo.');
    // Without JavaScript the page comes back with what was sent.
    expect(answer.text).toContain('value="Loja Que Não Salva"');
    expect(answer.text).toContain('value="azul"');
    expect(await homeHeader()).not.toContain('Loja Que Não Salva');
  });

  it('answers junk with a 4xx, never a 500', async () => {
    const admin = await adminVisitor(store.server.url);
    const put = await admin.request('/admin/settings', { method: 'PUT' });
    expect(put.status).toBe(405);
    const json = await admin.request('/admin/settings', {
      method: 'POST',
      body: '{"store_name":"x"}',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(json.status).toBe(400);
    const partial = await admin.post('/admin/settings', { store_name: 'Só o nome' });
    expect(partial.status).toBe(400);
    const repeated = await admin.post('/admin/settings', [
      ...settingsForm(),
      ['store_name', 'Outra'],
    ]);
    expect(repeated.status).toBe(400);
    expect(visibleText(repeated.text)).toContain('campo repetido');
    const unknownPage = await admin.post('/admin/settings/preview', { page: 'nada' });
    expect(unknownPage.status).toBe(400);
    const previewByGet = await admin.get('/admin/settings/preview');
    expect(previewByGet.status).toBeGreaterThanOrEqual(400);
    expect(previewByGet.status).toBeLessThan(500);
    const tab = await admin.get('/admin/settings?aba=%3Cscript%3E');
    expect(tab.status).toBe(200);
    expect(await homeHeader()).not.toContain('Só o nome');
  });

  it('answers a form a field past its limit, then a file, with a 400 at once (it hung)', async () => {
    const admin = await adminVisitor(store.server.url);
    for (const extra of [1, 2]) {
      const boundary = '----limite';
      const names = [...SETTINGS_FORM_FIELDS.map((spec) => spec.key), '_baseline'];
      for (let index = 0; index < extra; index++) names.push(`extra${index}`);
      const body =
        names
          .map(
            (name) =>
              `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\nx\r\n`,
          )
          .join('') +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\n0123456789\r\n--${boundary}--\r\n`;
      const answer = await admin.request('/admin/settings', {
        method: 'POST',
        body: Buffer.from(body),
        headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
        signal: AbortSignal.timeout(5_000),
      });
      expect(answer.status).toBe(400);
    }
  });

  it('saves without JavaScript too, only what changed', async () => {
    const admin = await adminVisitor(store.server.url);
    const answer = await admin.post(
      '/admin/settings',
      settingsForm({ store_slogan: 'Slogan sem JavaScript', default_shipping_cost_cents: '12,5' }),
    );
    expect(answer.status).toBe(303);
    expect(answer.location).toBe('/admin/settings');
    const page = await admin.get('/admin/settings');
    expect(visibleText(page.text)).toContain('Configurações salvas com sucesso!');
    expect(page.text).toContain('value="12,50"');
    expect(await homeHeader()).toContain('Slogan sem JavaScript');
  });
});

describe('the settings page in Chromium', () => {
  it.each(VIEWPORT_CASES)(
    'previews unsaved changes and changes the storefront at once when saved (%s)',
    async (name, viewport) => {
      const { page, problems } = await settingsPage(viewport);
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(await fitsWidth(page)).toBe(true);

      const storeName = `Loja Teste ${name}`;
      const color = name === 'mobile' ? '#7c3aed' : '#db2777';
      const canvas = page.getByTestId('settings-preview-canvas');
      await page.getByLabel('Nome da loja').fill(storeName);
      await page.getByLabel('Slogan').fill('Tudo para você');
      await page.getByLabel('Logo', { exact: true }).fill('/sample/logo.svg');
      await page.getByRole('tab', { name: 'Design' }).click();
      await page.getByLabel('Cor primária', { exact: true }).fill(color);
      expect(await page.getByLabel('Escolher a cor: Cor primária').inputValue()).toBe(color);

      // The preview follows before anything is saved.
      await expect.poll(() => canvas.getByTestId('store-name').innerText()).toBe(storeName);
      expect(await canvas.innerText()).toContain('Tudo para você');
      // The storefront's own header, welcome, product cards and footer, not a copy of them.
      expect(await canvas.getByTestId('store-header').count()).toBe(1);
      expect(await canvas.getByTestId('hero').innerText()).toContain('Tudo para você');
      expect(await canvas.getByTestId('product-card').count()).toBe(4);
      expect(await canvas.locator('footer').innerText()).toContain(storeName);
      expect(await canvas.getByTestId('store-logo').getAttribute('src')).toMatch(
        publicFileSrc('/sample/logo.svg'),
      );
      expect(
        await canvas.evaluate((element) =>
          getComputedStyle(element).getPropertyValue('--store-primary-color'),
        ),
      ).toBe(color);
      expect(await homeHeader()).not.toContain(storeName);

      // A font not saved yet is drawn in the preview with the store's own @font-face rules.
      await page.getByRole('tab', { name: 'Tipografia' }).click();
      await page.getByLabel('Fonte dos títulos').selectOption('Oswald');
      await expect
        .poll(() =>
          canvas.getByTestId('store-name').evaluate(async (element) => {
            await document.fonts.ready;
            const family = getComputedStyle(element).fontFamily.replaceAll(/['"]/g, '');
            const loaded = [...document.fonts].some(
              (face) =>
                face.family.replaceAll(/['"]/g, '') === 'Oswald' && face.status === 'loaded',
            );
            return family.startsWith('Oswald') && loaded;
          }),
        )
        .toBe(true);
      await page.getByRole('tab', { name: 'Design' }).click();

      // The device switch lays the preview out as a phone or a computer.
      await page.getByRole('button', { name: 'Celular' }).click();
      expect(await canvas.getAttribute('data-device')).toBe('mobile');
      expect(await canvas.evaluate((element) => (element as HTMLElement).offsetWidth)).toBe(360);
      await page.getByRole('button', { name: 'Computador' }).click();
      expect(await canvas.getAttribute('data-device')).toBe('desktop');
      expect(await canvas.evaluate((element) => (element as HTMLElement).offsetWidth)).toBe(1024);
      expect(await fitsWidth(page)).toBe(true);

      const save = page.getByRole('button', { name: 'Salvar configurações' });
      await save.click();
      await toast(page, 'Configurações salvas com sucesso!');

      // The storefront shows the new name, logo and colour on its next page.
      const home = await store.browser.newPage({ viewport });
      await home.goto(`${store.server.url}/`);
      const header = home.getByRole('banner');
      expect(await header.innerText()).toContain(storeName);
      expect(await header.locator('img').first().getAttribute('src')).toMatch(
        publicFileSrc('/sample/logo.svg'),
      );
      expect(
        await home.evaluate(() =>
          getComputedStyle(document.documentElement).getPropertyValue('--store-primary-color'),
        ),
      ).toBe(color);
      await home.close();

      // The form shows what was saved after a reload.
      await page.waitForLoadState('networkidle');
      await page.reload({ waitUntil: 'networkidle' });
      expect(await page.getByLabel('Nome da loja').inputValue()).toBe(storeName);
      expect(unexpected(problems)).toEqual([]);
      await page.context().close();
    },
  );

  it.each(VIEWPORT_CASES)(
    'marks a wrong field on its tab, focuses it and saves nothing (%s)',
    async (name, viewport) => {
      const { page, problems } = await settingsPage(viewport);
      const before = await page.getByLabel('Nome da loja').inputValue();
      await page.getByLabel('Nome da loja').fill(`Não salva ${name}`);
      await page.getByRole('tab', { name: 'Redes sociais' }).click();
      await page.getByLabel('Instagram').fill('instagram.com/loja');
      await page.getByRole('tab', { name: 'Design' }).click();
      await page.getByLabel('Cor secundária', { exact: true }).fill('verde');
      await page.getByRole('tab', { name: 'Básico' }).click();
      await page.getByRole('button', { name: 'Salvar configurações' }).click();

      await toast(page, 'Erro ao salvar configurações');
      // The first wrong field in page order is on Design: its tab opens and the field has focus.
      const design = page.getByRole('tab', { name: 'Design (com erros)' });
      expect(await design.getAttribute('aria-selected')).toBe('true');
      await page.getByText('Cor inválida: use o formato #RRGGBB (por exemplo #3b82f6).').waitFor();
      expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe(
        'secondary_color',
      );
      expect(
        await page.getByLabel('Cor secundária', { exact: true }).getAttribute('aria-invalid'),
      ).toBe('true');
      await page.getByRole('tab', { name: 'Redes sociais (com erros)' }).click();
      await page
        .getByText('Endereço inválido: use um link que comece com https:// (ou http://).')
        .waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(await fitsWidth(page)).toBe(true);

      // Nothing was saved, and nothing typed was lost.
      expect(await homeHeader()).not.toContain(`Não salva ${name}`);
      await page.getByRole('tab', { name: 'Básico' }).click();
      expect(await page.getByLabel('Nome da loja').inputValue()).toBe(`Não salva ${name}`);
      expect(before).not.toBe(`Não salva ${name}`);
      expect(unexpected(problems)).toEqual([]);
      await page.context().close();
    },
  );

  it.each(VIEWPORT_CASES)(
    'shows the payment provider and PIX settings, accessible (%s)',
    async (_name, viewport) => {
      const { page, problems } = await settingsPage(viewport, '?aba=avancado');
      const panel = page.getByRole('tabpanel', { name: 'Avançado' });
      expect(await page.getByTestId('payment-provider').innerText()).toBe('Gateway de pagamento');
      expect(await panel.innerText()).toContain('PAYMENT_PROVIDER');
      expect(await page.getByLabel('Nome do recebedor').getAttribute('maxlength')).toBe('25');
      expect(await page.getByLabel('Cidade do recebedor').getAttribute('maxlength')).toBe('15');
      expect(await page.getByLabel('Prazo para pagar (minutos)').getAttribute('type')).toBe(
        'number',
      );
      expect(await page.getByLabel('Valor do frete fixo').inputValue()).toMatch(/^\d+,\d{2}$/);
      const html = await page.content();
      for (const secret of Object.values(SECRETS)) expect(html).not.toContain(secret);
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(await fitsWidth(page)).toBe(true);
      expect(unexpected(problems)).toEqual([]);
      await page.context().close();
    },
  );

  it.each(VIEWPORT_CASES)(
    'edits a content page in Markdown with the storefront preview, and /sobre shows it (%s)',
    async (name, viewport) => {
      const { page, problems } = await settingsPage(viewport, '?aba=paginas');
      const editor = page.getByLabel('Sobre nós', { exact: true });
      const preview = page.getByRole('region', { name: 'Prévia: Sobre nós' });

      // Empty: the preview shows the built-in text, and says so.
      await editor.fill('');
      await page.getByRole('button', { name: 'Ver prévia' }).first().click();
      await preview.getByText('Campo em branco').waitFor();
      await expect.poll(() => preview.innerText()).toContain('Quem somos');

      const heading = `Nossa história ${name}`;
      await editor.fill(
        `## ${heading}\n\nSomos uma **loja de bairro**.\n\n<script>alert(1)</script>`,
      );
      await preview.getByRole('heading', { name: heading }).waitFor();
      expect(await preview.locator('strong').innerText()).toBe('loja de bairro');
      // Raw HTML is shown as text, never run.
      expect(await preview.innerText()).toContain('<script>alert(1)</script>');
      expect(await preview.locator('script').count()).toBe(0);
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(await fitsWidth(page)).toBe(true);

      await page.getByRole('button', { name: 'Salvar configurações' }).click();
      await toast(page, 'Configurações salvas com sucesso!');
      const about = await store.browser.newPage({ viewport });
      await about.goto(`${store.server.url}/sobre`);
      await about.getByRole('heading', { name: heading }).waitFor();
      expect(await about.locator('article strong').innerText()).toBe('loja de bairro');
      await about.close();
      expect(unexpected(problems)).toEqual([]);
      await page.context().close();
    },
  );

  it('lets the colours follow the primary, warns of a pair that reads badly, and uploads the logo and favicon (mobile)', async () => {
    const { page, problems } = await settingsPage(VIEWPORTS.mobile, '?aba=design');
    const teal = '#0f766e';
    await page.getByLabel('Cor primária', { exact: true }).fill(teal);
    // Left empty, the links say which colour they follow, and take it.
    const links = page.getByLabel('Links', { exact: true });
    expect(await links.inputValue()).toBe('');
    await expect.poll(() => links.getAttribute('placeholder')).toBe(`Automática: ${teal}`);

    // A text colour that reads badly on the page is named, in pt-BR, as it is typed.
    const warnings = page.getByTestId('contrast-warnings');
    await page.getByLabel('Texto', { exact: true }).fill('#bbbbbb');
    await expect.poll(() => warnings.innerText()).toContain('Texto sobre Fundo da página: 1,9:1');
    expect(await warnings.innerText()).toContain('Uma combinação de cores fica difícil de ler');
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await fitsWidth(page)).toBe(true);
    await page.getByLabel('Texto', { exact: true }).fill('#111827');
    await expect.poll(() => warnings.innerText()).toBe('');

    // The logo and the favicon as files, like product photos; an SVG favicon is refused first.
    await page.getByRole('tab', { name: 'Básico' }).click();
    const logo = await pngFile(600, 200, 'logo.png');
    await page.getByLabel('Enviar arquivo: Logo').setInputFiles(logo);
    await page.getByLabel('Enviar arquivo: Ícone da aba do navegador (favicon)').setInputFiles({
      name: 'icone.svg',
      mimeType: 'image/svg+xml',
      buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>'),
    });
    const save = page.getByRole('button', { name: 'Salvar configurações' });
    await save.click();
    await toast(page, 'Erro ao salvar configurações');
    await page.getByText('O arquivo "icone.svg" não é uma imagem aceita.').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await homeHeader()).not.toContain('/media/');

    await page.getByLabel('Enviar arquivo: Logo').setInputFiles(logo);
    await page
      .getByLabel('Enviar arquivo: Ícone da aba do navegador (favicon)')
      .setInputFiles(await pngFile(300, 300, 'icone.png'));
    await page.getByRole('tab', { name: 'Design' }).click();
    await page.getByLabel('Cor primária', { exact: true }).fill(teal);
    await save.click();
    await toast(page, 'Configurações salvas com sucesso!');
    await page.waitForLoadState('networkidle');
    expect(await page.getByLabel('Logo', { exact: true }).inputValue()).toMatch(
      /^\/media\/[0-9a-f-]{36}-600\.webp$/,
    );

    // The storefront: the links, breadcrumbs and 'Comprar agora' in the new colour, the uploads.
    const home = await store.browser.newPage({ viewport: VIEWPORTS.mobile });
    await home.goto(`${store.server.url}/`);
    const variable = (name: string) =>
      home.evaluate(
        (property) => getComputedStyle(document.documentElement).getPropertyValue(property),
        name,
      );
    expect(await variable('--store-link-color')).toBe(teal);
    expect(await variable('--store-breadcrumb-color')).toBe(teal);
    expect(await variable('--store-button-primary-color')).toBe(teal);
    expect(await variable('--store-button-success-color')).not.toBe('#15803d');
    expect(await home.getByRole('banner').locator('img').first().getAttribute('src')).toMatch(
      /^\/media\/[0-9a-f-]{36}-600\.webp$/,
    );
    const icon = await home.locator('link[rel="icon"]').getAttribute('href');
    expect(icon).toMatch(/^\/media\/[0-9a-f-]{36}-64\.png$/);
    const answer = await fetch(`${store.server.url}${icon}`);
    expect(answer.headers.get('content-type')).toBe('image/png');
    await home.close();
    expect(unexpected(problems)).toEqual([]);
    await page.context().close();
  });
});

/** A PNG for a file input, drawn by sharp. */
async function pngFile(width: number, height: number, name: string) {
  const buffer = await sharp({
    create: { width, height, channels: 3, background: { r: 15, g: 118, b: 110 } },
  })
    .png()
    .toBuffer();
  return { name, mimeType: 'image/png', buffer };
}
