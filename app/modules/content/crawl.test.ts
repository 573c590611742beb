import { describe, expect, it } from 'vitest';

import { robotsTxt, sitemapXml, storeSitemapEntries } from './crawl';

describe('sitemap', () => {
  it('lists home, catalogue, content pages and products with their last change', () => {
    const updatedAt = new Date('2026-03-04T05:06:07.000Z');
    const xml = sitemapXml(
      'https://loja.com.br',
      storeSitemapEntries([{ slug: 'fone-de-ouvido-bluetooth-pro', updatedAt }]),
    );
    expect([...xml.matchAll(/<loc>(.*?)<\/loc>/g)].map((match) => match[1])).toEqual([
      'https://loja.com.br/',
      'https://loja.com.br/products',
      'https://loja.com.br/sobre',
      'https://loja.com.br/politicadevolucao',
      'https://loja.com.br/politicaprivacidade',
      'https://loja.com.br/faq',
      'https://loja.com.br/contato',
      'https://loja.com.br/product/fone-de-ouvido-bluetooth-pro',
    ]);
    expect(xml).toContain(
      '<loc>https://loja.com.br/product/fone-de-ouvido-bluetooth-pro</loc>' +
        '<lastmod>2026-03-04T05:06:07.000Z</lastmod>',
    );
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset')).toBe(true);
  });

  it('escapes what XML would read as markup', () => {
    const xml = sitemapXml('https://loja.com.br/?a=1&b=<2>', [{ path: "/it's" }]);
    expect(xml).toContain('<loc>https://loja.com.br/?a=1&amp;b=&lt;2&gt;/it&apos;s</loc>');
  });
});

describe('robots.txt', () => {
  it('keeps crawlers out of private pages and points to the sitemap', () => {
    const robots = robotsTxt('https://loja.com.br', 'index, follow');
    expect(robots).toContain('User-agent: *\n');
    for (const path of ['/cart', '/checkout', '/admin']) {
      expect(robots).toContain(`Disallow: ${path}\n`);
    }
    expect(robots).not.toMatch(/^Disallow: \/$/m);
    expect(robots).toContain('Sitemap: https://loja.com.br/sitemap.xml');
  });

  it.each(['noindex, nofollow', 'noindex', 'none', 'NOINDEX,follow'])(
    'closes the whole store for "%s"',
    (metaRobots) => {
      const robots = robotsTxt('https://loja.com.br', metaRobots);
      expect(robots).toMatch(/^Disallow: \/$/m);
      expect(robots).not.toContain('Disallow: /cart');
    },
  );
});
