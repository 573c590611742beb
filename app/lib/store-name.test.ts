import { describe, expect, it } from 'vitest';

import { storeAfter } from './store-name';

describe('storeAfter', () => {
  it('lets the noun carry the article, whatever the name’s gender', () => {
    expect(storeAfter('à', 'Empório Café do João')).toBe('à loja Empório Café do João');
    expect(storeAfter('na', 'TechStore')).toBe('na loja TechStore');
    expect(storeAfter('da', 'Casa Bela')).toBe('da loja Casa Bela');
  });

  it('does not repeat a name that already says it is a store', () => {
    expect(storeAfter('na', 'Loja da Maria')).toBe('na Loja da Maria');
    expect(storeAfter('da', 'loja do bairro')).toBe('da loja do bairro');
    expect(storeAfter('à', 'Lojas Unidas')).toBe('à loja Lojas Unidas');
  });
});
