import { describe, expect, it } from 'vitest';

import { canonicalOrigin } from './canonical-origin';

describe('canonicalOrigin', () => {
  it('is the origin of an absolute http(s) URL, and nothing otherwise', () => {
    expect(canonicalOrigin('https://loja.com.br/')).toBe('https://loja.com.br');
    expect(canonicalOrigin('https://loja.com.br/loja/')).toBe('https://loja.com.br');
    expect(canonicalOrigin('')).toBeNull();
    expect(canonicalOrigin('/loja')).toBeNull();
    expect(canonicalOrigin('https://')).toBeNull();
  });
});
