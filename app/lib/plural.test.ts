import { describe, expect, it } from 'vitest';

import { countOf } from './plural';

describe('countOf', () => {
  it('is singular for one only, and groups thousands as Brazil does', () => {
    expect(countOf(1, 'pedido', 'pedidos')).toBe('1 pedido');
    expect(countOf(0, 'pedido', 'pedidos')).toBe('0 pedidos');
    expect(countOf(2, 'produto novo', 'produtos novos')).toBe('2 produtos novos');
    expect(countOf(1204, 'pedido', 'pedidos')).toBe('1.204 pedidos');
  });
});
