import { describe, expect, it } from 'vitest';

import {
  catalogSearch,
  defaultSort,
  formatReais,
  pageNotice,
  parseCatalogParams,
  sortOptions,
} from './catalog-params';
import { parseReais } from '~/lib/reais';

const AUDIO = { id: '5a3b1e00-0000-4000-8000-000000000c01', name: 'Áudio', slug: 'audio' };
const GAMES = { id: '5a3b1e00-0000-4000-8000-000000000c02', name: 'Games', slug: 'games' };
const options = { categories: [AUDIO, GAMES], perPage: 12 };

function parse(search: string) {
  return parseCatalogParams(new URLSearchParams(search), options);
}

describe('formatReais', () => {
  it('writes cents for a price field', () => {
    expect(formatReais(1000)).toBe('10');
    expect(formatReais(1050)).toBe('10,50');
    expect(formatReais(123456)).toBe('1234,56');
    expect(formatReais(5)).toBe('0,05');
    expect(parseReais(formatReais(123456))).toEqual({ cents: 123456 });
  });
});

describe('parseCatalogParams', () => {
  it('gives the whole catalogue, newest first, page 1, in a grid for an empty query', () => {
    expect(parse('')).toEqual({
      query: { perPage: 12, sort: 'newest', page: 1 },
      notices: [],
      view: 'grid',
    });
  });

  it('reads every filter', () => {
    const parsed = parse(
      `q=${encodeURIComponent('  fone   bluetooth ')}&categoria=Audio` +
        '&min=10,50&max=1.234,56&ordem=menor-preco&pagina=3&vista=lista',
    );
    expect(parsed).toEqual({
      query: {
        q: 'fone bluetooth',
        categoryId: AUDIO.id,
        categorySlug: 'audio',
        minCents: 1050,
        maxCents: 123456,
        sort: 'price-asc',
        page: 3,
        perPage: 12,
      },
      notices: [],
      view: 'list',
    });
    expect(parse('ordem=maior-preco').query.sort).toBe('price-desc');
    expect(parse('ordem=nome').query.sort).toBe('name');
    expect(parse('ordem=recentes').query.sort).toBe('newest');
    expect(parse('q=fone&ordem=recentes').query.sort).toBe('newest');
    expect(parse('q=fone&ordem=relevancia').query.sort).toBe('relevance');
    expect(parse('vista=grade').view).toBe('grid');
  });

  it('ignores blank fields, as an empty form sends them', () => {
    expect(parse('q=&categoria=&min=&max=+&ordem=&pagina=&vista=')).toEqual(parse(''));
  });

  it('orders a search by relevance unless told otherwise, and the rest newest first', () => {
    expect(parse('q=fone').query.sort).toBe('relevance');
    expect(parse('q=fone&ordem=').query.sort).toBe('relevance');
    expect(parse('ordem=menor-preco&q=fone').query.sort).toBe('price-asc');
    // Relevance is no order without a search: quietly the newest first.
    expect(parse('ordem=relevancia')).toEqual(parse(''));
    expect(parse('q=fone&ordem=x').notices).toEqual([
      'A ordem “x” não existe; mostrando os mais relevantes.',
    ]);
  });

  it('offers relevance only for a search', () => {
    expect(sortOptions('fone')).toEqual(['relevance', 'newest', 'price-asc', 'price-desc', 'name']);
    expect(sortOptions('')).toEqual(['newest', 'price-asc', 'price-desc', 'name']);
    expect(sortOptions(undefined)).toEqual(sortOptions(' '));
    expect(defaultSort('fone')).toBe('relevance');
    expect(defaultSort('  ')).toBe('newest');
  });

  it('finds a category by its slug, with no redirect', () => {
    const parsed = parse('categoria=games&q=x');
    expect(parsed.query).toMatchObject({ categoryId: GAMES.id, categorySlug: 'games' });
    expect(parsed.redirectSearch).toBeUndefined();
    expect(parse('categoria=GAMES').redirectSearch).toBeUndefined();
  });

  it('finds a category by its old id and gives the same query with the slug, to redirect to', () => {
    const parsed = parse(`q=fone&categoria=${AUDIO.id.toUpperCase()}&min=10&vista=lista`);
    expect(parsed.query).toMatchObject({ categoryId: AUDIO.id, categorySlug: 'audio' });
    expect(parsed.redirectSearch).toBe('?q=fone&categoria=audio&min=10&vista=lista');
    expect(parse(`categoria=${GAMES.id}`).redirectSearch).toBe('?categoria=games');
  });

  it('ignores an unknown category and says so', () => {
    for (const value of ['5a3b1e00-0000-4000-8000-000000000999', 'abc', 'áudio']) {
      const parsed = parse(`categoria=${value}`);
      expect(parsed.query.categoryId).toBeUndefined();
      expect(parsed.redirectSearch).toBeUndefined();
      expect(parsed.notices).toEqual([
        'A categoria escolhida não foi encontrada; mostrando todas as categorias.',
      ]);
    }
  });

  it('ignores prices that are not numbers, negative or absurd, and says why', () => {
    const parsed = parse('min=abc&max=-5');
    expect(parsed.query.minCents).toBeUndefined();
    expect(parsed.query.maxCents).toBeUndefined();
    expect(parsed.notices).toEqual([
      'O preço mínimo “abc” não é um número e foi ignorado.',
      'O preço máximo “-5” não pode ser negativo e foi ignorado.',
    ]);
    expect(parse('max=99999999999').notices).toEqual([
      'O preço máximo “99999999999” é alto demais e foi ignorado.',
    ]);
    expect(parse(`min=${'x'.repeat(500)}`).notices).toEqual([
      `O preço mínimo “${'x'.repeat(30)}…” não é um número e foi ignorado.`,
    ]);
  });

  it('swaps a minimum above the maximum and says so', () => {
    const parsed = parse('min=100&max=10,50');
    expect(parsed.query).toMatchObject({ minCents: 1050, maxCents: 10000 });
    expect(parsed.notices).toEqual([
      'O preço mínimo era maior que o máximo; os dois foram trocados.',
    ]);
    expect(parse('min=10&max=10').notices).toEqual([]);
  });

  it('falls back to the newest first for an unknown sort', () => {
    const parsed = parse('ordem=barato');
    expect(parsed.query.sort).toBe('newest');
    expect(parsed.notices).toEqual(['A ordem “barato” não existe; mostrando os mais recentes.']);
  });

  it('falls back to page 1 for a page that cannot exist', () => {
    for (const value of ['0', 'abc', '-1', '1.5', '99999999999']) {
      const parsed = parse(`pagina=${value}`);
      expect(parsed.query.page, value).toBe(1);
      expect(parsed.notices).toEqual([`A página “${value}” não existe; mostrando a página 1.`]);
    }
  });

  it('falls back to the grid for an unknown view', () => {
    const parsed = parse('vista=mosaico');
    expect(parsed.view).toBe('grid');
    expect(parsed.notices).toEqual(['A visualização “mosaico” não existe; mostrando em grade.']);
  });

  it('shortens a very long search and says so', () => {
    const parsed = parse(`q=${'a'.repeat(150)}`);
    expect(parsed.query.q).toBe('a'.repeat(100));
    expect(parsed.notices).toEqual(['A busca foi encurtada para 100 caracteres.']);
  });

  it('drops control characters from a search', () => {
    expect(parse('q=%00fone%0Ade%7Fouvido%1B').query.q).toBe('fone de ouvido');
    expect(parse('q=%00%01').query.q).toBeUndefined();
  });

  it('collects one notice per bad value', () => {
    expect(parse('categoria=x&min=abc&ordem=y&pagina=0&vista=z').notices).toHaveLength(5);
  });
});

describe('catalogSearch', () => {
  it('writes only meaningful values, in a form parseCatalogParams reads back', () => {
    expect(catalogSearch({ sort: 'newest', page: 1 })).toBe('');
    expect(catalogSearch({ sort: 'relevance' })).toBe('');
    expect(catalogSearch({ q: 'fone', sort: 'relevance' })).toBe('?q=fone');
    expect(catalogSearch({ q: 'fone', sort: 'newest' })).toBe('?q=fone&ordem=recentes');
    // Without the slug, the id: the page redirects it.
    expect(catalogSearch({ categoryId: AUDIO.id })).toBe(`?categoria=${AUDIO.id}`);
    const search = catalogSearch(
      {
        q: 'café & leite',
        categoryId: AUDIO.id,
        categorySlug: 'audio',
        minCents: 1050,
        maxCents: 123456,
        sort: 'price-desc',
        page: 2,
      },
      'list',
    );
    expect(search).toBe(
      `?q=caf%C3%A9+%26+leite&categoria=audio&min=10%2C50&max=1234%2C56&ordem=maior-preco&pagina=2&vista=lista`,
    );
    expect(parse(search.slice(1))).toEqual({
      query: {
        q: 'café & leite',
        categoryId: AUDIO.id,
        categorySlug: 'audio',
        minCents: 1050,
        maxCents: 123456,
        sort: 'price-desc',
        page: 2,
        perPage: 12,
      },
      notices: [],
      view: 'list',
    });
  });
});

describe('pageNotice', () => {
  it('says nothing about a page that exists', () => {
    expect(pageNotice(2, { page: 2, pageCount: 3, total: 30 }, 12)).toBeUndefined();
    expect(pageNotice(3, { page: 3, pageCount: 3, total: 30 }, 12)).toBeUndefined();
  });

  it('names the page asked for and the page shown when it is past the last one', () => {
    expect(pageNotice(9, { page: 2, pageCount: 2, total: 20 }, 12)).toBe(
      'A página 9 não existe; mostrando a última página (2).',
    );
  });

  it('says where the list stops when it stops before the products run out', () => {
    const capped = { page: 100, pageCount: 100, total: 100_000 };
    expect(pageNotice(100, capped, 12)).toBe(
      'A lista vai até esta página. Para ver os demais produtos, use a busca, os filtros ou outra ordem.',
    );
    expect(pageNotice(200, capped, 12)).toBe(
      'A lista vai até a página 100; mostrando a página 100. Para ver os demais produtos, use a busca, os filtros ou outra ordem.',
    );
    expect(pageNotice(99, { ...capped, page: 99 }, 12)).toBeUndefined();
  });
});
