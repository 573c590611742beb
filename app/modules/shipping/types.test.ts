import { describe, expect, it } from 'vitest';

import { deliveryDays, shippingLineLabel, type OrderShipping } from './types';

const sedex: OrderShipping = {
  provider: 'melhorenvio',
  serviceId: '2',
  carrier: 'Correios',
  service: 'SEDEX',
  businessDays: 3,
  approximate: false,
};
const rule: OrderShipping = {
  provider: null,
  serviceId: null,
  carrier: null,
  service: null,
  businessDays: null,
  approximate: false,
};

describe("an order's shipping as pages and e-mails name it", () => {
  it('names the carrier and service, or says the rule was approximate', () => {
    expect(shippingLineLabel(sedex)).toBe('Frete (Correios SEDEX)');
    expect(shippingLineLabel({ ...rule, approximate: true })).toBe(
      'Frete (prazo e valor aproximados)',
    );
    expect(shippingLineLabel(rule)).toBe('Frete');
    expect(shippingLineLabel(null)).toBe('Frete');
  });

  it("promises the chosen service's days, else the store's", () => {
    expect(deliveryDays(sedex, 7)).toBe(3);
    expect(deliveryDays(rule, 7)).toBe(7);
    expect(deliveryDays(null, 7)).toBe(7);
  });
});
