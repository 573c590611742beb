import { describe, expect, it } from 'vitest';

import { storeOptions, type OptionSettings } from './options';
import type { CarrierQuote } from './types';

const quotes: CarrierQuote[] = [
  { serviceId: '2', carrier: 'Correios', service: 'SEDEX', priceCents: 4590, businessDays: 2 },
  { serviceId: '1', carrier: 'Correios', service: 'PAC', priceCents: 2490, businessDays: 7 },
  { serviceId: '3', carrier: 'Jadlog', service: '.Package', priceCents: 2490, businessDays: 5 },
];
const plain: OptionSettings = {
  shipping_services: '',
  shipping_markup_cents: 0,
  shipping_markup_percent: 0,
  shipping_handling_days: 0,
};

describe('storeOptions', () => {
  it('offers every service, cheapest first, faster first at the same price', () => {
    expect(storeOptions(quotes, plain).map((option) => option.id)).toEqual(['3', '1', '2']);
  });

  it('offers only the services the store picked', () => {
    const picked = storeOptions(quotes, { ...plain, shipping_services: '1,2' });
    expect(picked.map((option) => option.id)).toEqual(['1', '2']);
  });

  it('adds the markup (percent rounded up, then the fixed amount) and the handling days', () => {
    const [sedex] = storeOptions(quotes, {
      shipping_services: '2',
      shipping_markup_cents: 300,
      shipping_markup_percent: 10,
      shipping_handling_days: 2,
    });
    // 10% of R$ 45,90 is R$ 4,59; plus R$ 3,00.
    expect(sedex).toEqual({
      id: '2',
      carrier: 'Correios',
      service: 'SEDEX',
      priceCents: 4590 + 459 + 300,
      businessDays: 4,
    });
  });
});
