import { describe, expect, it } from 'vitest';

import { trackingLink } from './tracking-link';

describe('trackingLink', () => {
  it("sends a Correios code to the Correios' tracking page", () => {
    expect(trackingLink('AA123456789BR')).toEqual({
      carrier: 'Correios',
      url: 'https://rastreamento.correios.com.br/app/index.php?objetos=AA123456789BR',
    });
  });

  it('reads a code as staff may type it: lower case, spaces, dots or dashes', () => {
    expect(trackingLink(' qb 123.456.789-br ')?.url).toBe(
      'https://rastreamento.correios.com.br/app/index.php?objetos=QB123456789BR',
    );
  });

  it('links nothing else: other carriers, other countries, the wrong length', () => {
    for (const code of [
      'JAD123456789',
      'AA123456789US',
      'AA12345678BR',
      'AA1234567890BR',
      '1A123456789BR',
      'AA12345678XBR',
      'Entrega própria',
      '',
    ]) {
      expect(trackingLink(code)).toBeNull();
    }
  });
});
