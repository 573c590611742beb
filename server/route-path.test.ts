import type express from 'express';
import { describe, expect, it } from 'vitest';

import { routePath } from './request-guard';

const pathOf = (url: string) =>
  routePath({ originalUrl: url, path: url.split('?')[0] } as express.Request);

describe('routePath', () => {
  it('reads a path as React Router matches it', () => {
    expect(pathOf('/admin/orders?status=pending')).toBe('/admin/orders');
    expect(pathOf('/Admin/Login')).toBe('/admin/login');
    expect(pathOf('/%61dmin')).toBe('/admin');
    expect(pathOf('/admin/../products')).toBe('/products');
    expect(pathOf('/products/%2E%2E/admin')).toBe('/admin');
    // An escaped slash stays inside its segment; a bad escape stays as it came.
    expect(pathOf('/admin%2Forders')).toBe('/admin%2forders');
    expect(pathOf('/admin/%E0%A4%A')).toBe('/admin/%e0%a4%a');
    expect(pathOf('//evil.example/admin')).toBe('//evil.example/admin');
  });
});
