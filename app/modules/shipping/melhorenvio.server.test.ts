import { describe, expect, it } from 'vitest';

import { calculateBody, parseQuotes } from './melhorenvio.server';

describe('calculateBody', () => {
  it('sends the parcel in kilograms and centimetres', () => {
    expect(
      calculateBody({
        fromCep: '01310100',
        toCep: '69005040',
        parcel: { weightGrams: 1250, lengthCm: 30, widthCm: 20, heightCm: 12 },
      }),
    ).toEqual({
      from: { postal_code: '01310100' },
      to: { postal_code: '69005040' },
      package: { weight: 1.25, length: 30, width: 20, height: 12 },
      options: { receipt: false, own_hand: false },
    });
  });
});

describe('parseQuotes', () => {
  const answer = [
    {
      id: 1,
      name: 'PAC',
      price: '20.83',
      custom_price: '19.90',
      delivery_time: 6,
      custom_delivery_time: 7,
      company: { id: 1, name: 'Correios' },
    },
    { id: 2, name: 'SEDEX', price: 45.9, delivery_time: 2, company: { name: 'Correios' } },
    { id: 4, name: '.Com', error: 'Transportadora não atende este trecho.', company: {} },
    { id: 17, name: 'Mini Envios', company: { name: 'Correios' } },
  ];

  it("reads custom_price and custom_delivery_time first, and leaves out services that can't carry", () => {
    expect(parseQuotes(JSON.stringify(answer))).toEqual([
      { serviceId: '1', carrier: 'Correios', service: 'PAC', priceCents: 1990, businessDays: 7 },
      { serviceId: '2', carrier: 'Correios', service: 'SEDEX', priceCents: 4590, businessDays: 2 },
    ]);
  });

  it.each(['<html>', '{"message":"Unauthenticated."}', 'null'])('refuses %j', (text) => {
    expect(() => parseQuotes(text)).toThrow();
  });
});
