import { describe, expect, it } from 'vitest';

import { pageNumber, pageWindow, parsePage, redirectFormerPage, withPage } from './pagination';

describe('pageNumber and parsePage', () => {
  it('read a page number, and nothing else, from `pagina`', () => {
    expect(pageNumber(' 3 ')).toBe(3);
    expect(pageNumber('999999999')).toBe(999_999_999);
    for (const text of ['0', '-1', 'abc', '1e9', '1.5', '9999999999', '', null, undefined]) {
      expect(pageNumber(text), String(text)).toBeNull();
    }
    expect(parsePage(new URLSearchParams('pagina=4&page=7'))).toBe(4);
    expect(parsePage(new URLSearchParams('page=7'))).toBe(1);
    expect(parsePage(new URLSearchParams('pagina=zero'))).toBe(1);
  });

  it('withPage writes the page, leaving the first page out', () => {
    expect(withPage(new URLSearchParams('q=a'), 2).toString()).toBe('q=a&pagina=2');
    expect(withPage(new URLSearchParams('q=a&pagina=5'), 1).toString()).toBe('q=a');
  });
});

describe('redirectFormerPage', () => {
  /** Where a request for `path` is sent with a 301, or null when it is let through. */
  function moved(path: string): string | null {
    try {
      redirectFormerPage(new Request(new URL(path, 'http://loja.test')));
      return null;
    } catch (thrown) {
      const response = thrown as Response;
      expect(response.status).toBe(301);
      return response.headers.get('Location');
    }
  }

  it('renames `page` to `pagina` in place, keeping every other parameter', () => {
    expect(moved('/admin/orders?status=pending&page=3&q=ana+paula')).toBe(
      '/admin/orders?status=pending&pagina=3&q=ana+paula',
    );
    expect(moved('/admin/products?page=2')).toBe('/admin/products?pagina=2');
  });

  it('keeps a `pagina` already there, and leaves an address without `page` alone', () => {
    expect(moved('/admin/products?pagina=4&page=2&q=x')).toBe('/admin/products?pagina=4&q=x');
    expect(moved('/admin/products?pagina=2')).toBeNull();
    expect(moved('/admin/products')).toBeNull();
  });
});

describe('pageWindow', () => {
  it('lists every page when there are few', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(2, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(4, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('keeps the first, the last and the neighbours of the current page, with gaps', () => {
    expect(pageWindow(1, 7)).toEqual([1, 2, 3, null, 7]);
    expect(pageWindow(1, 100)).toEqual([1, 2, 3, null, 100]);
    expect(pageWindow(50, 100)).toEqual([1, null, 48, 49, 50, 51, 52, null, 100]);
    expect(pageWindow(100, 100)).toEqual([1, null, 98, 99, 100]);
    expect(pageWindow(5, 100)).toEqual([1, 2, 3, 4, 5, 6, 7, null, 100]);
  });
});
