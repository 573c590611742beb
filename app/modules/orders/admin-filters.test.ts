import { describe, expect, it } from 'vitest';

import { displayCpf, displayPhone } from './admin-display';
import { orderFiltersQuery, orderSearchWords, parseOrderFilters } from './admin-filters';
import { orderActionSchema } from './admin-actions.server';
import { canTransition, transitionRefusal } from './transitions';

const filters = (query: string) => parseOrderFilters(new URLSearchParams(query));

describe('parseOrderFilters', () => {
  it('reads the list’s URL, the dashboard’s from/to included', () => {
    expect(filters('status=shipped&from=2025-03-01&to=2025-03-31&q=%20maria%20&pagina=3')).toEqual({
      status: 'shipped',
      from: '2025-03-01',
      to: '2025-03-31',
      q: 'maria',
      coupon: '',
      page: 3,
    });
  });

  it('falls back to defaults for anything it does not understand', () => {
    expect(filters('status=lost&from=2025-02-30&to=ontem&pagina=-1&q=')).toEqual({
      status: null,
      from: null,
      to: null,
      q: '',
      coupon: '',
      page: 1,
    });
    expect(filters('pagina=1e9999').page).toBe(1);
    expect(filters('from=1899-01-01').from).toBeNull();
    expect(filters(`q=${'a'.repeat(500)}`).q).toHaveLength(100);
    expect(filters('q=ana%00%07paula').q).toBe('ana paula');
    expect(filters(`coupon=${'a'.repeat(50)}`).coupon).toHaveLength(30);
  });

  it('swaps a period typed backwards', () => {
    expect(filters('from=2025-03-31&to=2025-03-01')).toMatchObject({
      from: '2025-03-01',
      to: '2025-03-31',
    });
  });

  it('writes the same filters back, leaving page 1 out', () => {
    expect(orderFiltersQuery(filters('q=ana+paula&status=pending&pagina=1'))).toBe(
      '?status=pending&q=ana+paula',
    );
    expect(orderFiltersQuery(filters(''), 2)).toBe('?pagina=2');
    expect(orderFiltersQuery(filters('coupon=%20bem%00Vindo10%20'))).toBe('?coupon=BEMVINDO10');
    expect(orderFiltersQuery(filters(''))).toBe('');
  });
});

describe('orderSearchWords', () => {
  it('reads an order number with or without its #', () => {
    expect(orderSearchWords('#1001')).toEqual([{ number: 1001 }]);
    expect(orderSearchWords('1001')).toEqual([{ number: 1001, cpf: '1001' }]);
    expect(orderSearchWords('#0')).toEqual([{ text: '0' }]);
  });

  it('drops the # of an old id and the punctuation of a CPF', () => {
    expect(orderSearchWords('#1A2B3C4D')).toEqual([{ text: '1A2B3C4D' }]);
    expect(orderSearchWords('529.982.247-25')).toEqual([{ text: '52998224725' }]);
    expect(orderSearchWords('52998224725')).toEqual([{ text: '52998224725' }]);
    expect(orderSearchWords('maria@example.com silva')).toEqual([
      { text: 'maria@example.com' },
      { text: 'silva' },
    ]);
    expect(orderSearchWords('#')).toEqual([]);
  });
});

describe('the status form', () => {
  it('needs a tracking code only for shipping', () => {
    expect(orderActionSchema.safeParse({ intent: 'status', status: 'delivered' }).success).toBe(
      true,
    );
    const missing = orderActionSchema.safeParse({ intent: 'status', status: 'shipped' });
    expect(missing.success).toBe(false);
    expect(missing.error?.issues[0]).toMatchObject({ path: ['trackingCode'] });
    expect(
      orderActionSchema.parse({
        intent: 'status',
        status: 'shipped',
        trackingCode: '  AA123456789BR ',
      }),
    ).toMatchObject({ trackingCode: 'AA123456789BR' });
    for (const bad of ['abc', '-ABCD', 'A'.repeat(41), 'AB<script>']) {
      expect(
        orderActionSchema.safeParse({ intent: 'status', status: 'shipped', trackingCode: bad })
          .success,
        bad,
      ).toBe(false);
    }
  });

  it('refuses an unknown intent or status', () => {
    expect(orderActionSchema.safeParse({ intent: 'hack' }).success).toBe(false);
    expect(orderActionSchema.safeParse({ intent: 'status', status: 'lost' }).success).toBe(false);
    expect(orderActionSchema.safeParse({ intent: 'note', note: '   ' }).success).toBe(false);
  });
});

describe('transitions', () => {
  it('explain a refused move in Portuguese', () => {
    expect(canTransition('delivered', 'pending')).toBe(false);
    expect(transitionRefusal('delivered', 'pending')).toBe(
      'Não é possível mudar de entregue para pendente.',
    );
    expect(canTransition('confirmed', 'shipped')).toBe(true);
  });
});

describe('how the admin writes a CPF and a phone', () => {
  it('masks the stored digits, and leaves anything else as it is', () => {
    expect(displayCpf('52998224725')).toBe('529.982.247-25');
    expect(displayPhone('11987654321')).toBe('(11) 98765-4321');
    expect(displayPhone('1140001234')).toBe('(11) 4000-1234');
    expect(displayCpf('123')).toBe('123');
    expect(displayPhone('+5511')).toBe('+5511');
  });
});
