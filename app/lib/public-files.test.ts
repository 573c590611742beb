import { describe, expect, it } from 'vitest';

import { publicFileUrl } from './public-files';

describe('publicFileUrl', () => {
  it("gives a picture of public/ the folder's version", () => {
    expect(publicFileUrl('/sample/logo.svg', 'abc123')).toBe('/sample/logo.svg?v=abc123');
    expect(publicFileUrl('/favicon.ico', 'abc123')).toBe('/favicon.ico?v=abc123');
  });

  it('leaves uploads, build files, other sites and anything already asked with a query alone', () => {
    for (const url of [
      '/media/0b7c4d9e-1f2a-8b3c-9d4e-5f6a7b8c9d0e-640.webp',
      '/assets/logo-Ab12Cd34.svg',
      'https://cdn.example.com/a.png',
      '//cdn.example.com/a.png',
      '/sample/logo.svg?v=old',
      'data:image/png;base64,AAAA',
      '/products',
    ]) {
      expect(publicFileUrl(url, 'abc123'), url).toBe(url);
    }
  });

  it('leaves every address as it is where no build gave a version', () => {
    expect(publicFileUrl('/sample/logo.svg', undefined)).toBe('/sample/logo.svg');
  });
});
