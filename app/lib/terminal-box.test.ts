import { describe, expect, it } from 'vitest';

import { boxed } from './terminal-box';

describe('boxed', () => {
  it('draws every line the same width, accents counted as one character', () => {
    const box = boxed(['Código de configuração: ABCDE', 'curta']).trimEnd().split('\n');
    expect(box).toHaveLength(4);
    expect(new Set(box.map((line) => [...line].length)).size).toBe(1);
    expect(box[1]).toBe('│  Código de configuração: ABCDE  │');
    expect(box[2]).toBe('│  curta                          │');
  });
});
