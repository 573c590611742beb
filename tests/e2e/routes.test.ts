import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  createDatabase,
  dropDatabase,
  TEST_DATABASE_URL,
  uniqueDatabaseName,
} from '../support/postgres';
import { sampleProduct } from '../support/sample';
import { startServer, type TestServer } from '../support/server';

const HEADPHONES = sampleProduct('Fone de Ouvido');
const HEADPHONES_SLUG = 'fone-de-ouvido-bluetooth-pro';

// Each public route with a text of SPEC §2 it must show.
const PAGES: [path: string, text: string][] = [
  ['/', 'Todos os produtos'],
  ['/', 'Avaliação 4,5 de 5'],
  ['/products', '10 produtos encontrados'],
  ['/products?q=cafe&ordem=nome', 'Nenhum produto encontrado'],
  [`/product/${HEADPHONES.id}`, 'Comprar agora'],
  ['/cart', 'Seu carrinho está vazio'],
  ['/sobre', 'Sobre nós'],
  ['/politicadevolucao', 'Política de troca e devolução'],
  ['/politicaprivacidade', 'Política de privacidade'],
  ['/faq', 'Perguntas frequentes'],
  ['/contato', 'Contato'],
  ['/sitemap.xml', `/product/${HEADPHONES_SLUG}</loc>`],
  ['/robots.txt', 'Sitemap:'],
];

const MISSING: [path: string, text: string][] = [
  ['/product/00000000-0000-4000-8000-000000000000', 'Produto não encontrado'],
  ['/product/nao-e-um-id', 'Produto não encontrado'],
  ['/pagina-que-nao-existe', 'Página não encontrada'],
];

const BACKENDS = TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

describe.each(BACKENDS)('every storefront route on %s', (backend) => {
  let server: TestServer;
  const database = uniqueDatabaseName('vitrine_routes');
  beforeAll(async () => {
    const env =
      backend === 'postgres'
        ? { DATABASE_URL: await createDatabase(TEST_DATABASE_URL!, database) }
        : undefined;
    server = await startServer({ env });
  });
  afterAll(async () => {
    await server?.stop();
    if (backend === 'postgres') await dropDatabase(TEST_DATABASE_URL!, database);
  });

  it.each(PAGES)('%s answers 200 with its text', async (path, text) => {
    const response = await fetch(`${server.url}${path}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(text);
  });

  it('gives products readable addresses; the old id address moves there for good', async () => {
    const page = await fetch(`${server.url}/product/${HEADPHONES_SLUG}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(
      `<link rel="canonical" href="${server.url}/product/${HEADPHONES_SLUG}"/>`,
    );
    for (const old of [HEADPHONES.id, HEADPHONES.id.toUpperCase(), HEADPHONES_SLUG.toUpperCase()]) {
      const moved = await fetch(`${server.url}/product/${old}?utm_source=x`, {
        redirect: 'manual',
      });
      expect(moved.status).toBe(301);
      expect(moved.headers.get('location')).toBe(`/product/${HEADPHONES_SLUG}?utm_source=x`);
    }
  });

  it('answers a path with broken percent-encoding with 400 and a pt-BR page', async () => {
    const response = await fetch(`${server.url}/product/%E0%A4%A`);
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('lang="pt-BR"');
    expect(html).toContain('Endereço inválido');
  });

  it.each(MISSING)('%s answers 404 in the store look', async (path, text) => {
    const response = await fetch(`${server.url}${path}`);
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain(text);
    expect(html).toContain('href="/products"');
  });
});
