import { describe, expect, it } from 'vitest';

import {
  cartBody,
  LABEL_REFUSALS,
  refusalReason,
  type LabelParty,
} from './melhorenvio-labels.server';

const invalid = (errors: Record<string, string[]>) =>
  JSON.stringify({ message: 'The given data was invalid.', errors });

describe('refusalReason', () => {
  it('says which part Melhor Envio refused, in pt-BR, with its own words', () => {
    const balance =
      'Seu saldo de R$ 0.00 é insuficiente para o pagamento com a carteira no valor de R$ 25.90';
    expect(refusalReason(422, JSON.stringify({ error: balance }))).toBe(
      LABEL_REFUSALS.balance(balance),
    );
    expect(
      refusalReason(422, invalid({ 'to.postal_code': ['O campo to.postal code é obrigatório.'] })),
    ).toBe(LABEL_REFUSALS.address('O campo to.postal code é obrigatório.'));
    expect(
      refusalReason(
        422,
        invalid({
          'volumes.0.weight': ['O campo volumes.0.weight deve ser um número maior que 0.'],
        }),
      ),
    ).toBe(LABEL_REFUSALS.dimensions('O campo volumes.0.weight deve ser um número maior que 0.'));
    const oversize = 'Dimensões do objeto ultrapassam o limite da transportadora.';
    expect(refusalReason(422, JSON.stringify({ error: oversize }))).toBe(
      LABEL_REFUSALS.dimensions(oversize),
    );
    expect(
      refusalReason(422, JSON.stringify({ error: 'Transportadora não atende este trecho.' })),
    ).toBe(LABEL_REFUSALS.service('Transportadora não atende este trecho.'));
    expect(refusalReason(422, invalid({ service: ['O serviço selecionado é inválido.'] }))).toBe(
      LABEL_REFUSALS.service('O serviço selecionado é inválido.'),
    );
  });

  it('names a refused token, and an answer that is not JSON by its status', () => {
    expect(refusalReason(401, '{"message":"Unauthenticated."}')).toBe(LABEL_REFUSALS.token);
    expect(refusalReason(502, '<html>Bad gateway</html>')).toBe(LABEL_REFUSALS.other(502, ''));
  });
});

describe('cartBody', () => {
  const party: LabelParty = {
    name: 'Maria da Silva',
    phone: '(11) 98765-4321',
    email: 'maria@example.com',
    document: '529.982.247-25',
    street: 'Avenida Paulista',
    number: '1000',
    complement: '',
    district: 'Bela Vista',
    city: 'São Paulo',
    state: 'SP',
    postalCode: '01310100',
  };

  it('sends reais, kilograms and the right document field, as a content declaration', () => {
    const body = cartBody({
      serviceId: '2',
      from: { ...party, name: 'Loja Ltda.', document: '11.222.333/0001-81' },
      to: party,
      products: [{ name: 'Fone', quantity: 2, unitCents: 29990 }],
      parcel: { weightGrams: 650, lengthCm: 20, widthCm: 15, heightCm: 20 },
      insuranceCents: 59980,
      tag: '#1001',
      invoiceKey: null,
    });
    expect(body.service).toBe(2);
    expect(body.from).toMatchObject({ company_document: '11222333000181', phone: '11987654321' });
    expect(body.from).not.toHaveProperty('document');
    expect(body.to).toMatchObject({ document: '52998224725', state_abbr: 'SP' });
    expect(body.products).toEqual([{ name: 'Fone', quantity: 2, unitary_value: 299.9 }]);
    expect(body.volumes).toEqual([{ height: 20, width: 15, length: 20, weight: 0.65 }]);
    expect(body.options).toMatchObject({
      insurance_value: 599.8,
      non_commercial: true,
      tags: [{ tag: '#1001', url: null }],
    });
    expect(body.options).not.toHaveProperty('invoice');
  });

  it("sends the authorized NF-e's key instead of a content declaration", () => {
    const key = '35261211222333000181550010000001231000001230';
    const body = cartBody({
      serviceId: '2',
      from: { ...party, name: 'Loja Ltda.', document: '11.222.333/0001-81' },
      to: party,
      products: [{ name: 'Fone', quantity: 1, unitCents: 29990 }],
      parcel: { weightGrams: 650, lengthCm: 20, widthCm: 15, heightCm: 20 },
      insuranceCents: 29990,
      tag: '#1001',
      invoiceKey: key,
    });
    expect(body.options).toMatchObject({ non_commercial: false, invoice: { key } });
  });
});
