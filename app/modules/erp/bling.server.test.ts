import { createHmac } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { blingRefusal, createBling } from './bling.server';

const bling = createBling({
  apiUrl: 'https://api.bling.test/Api/v3/',
  clientId: 'app-1',
  clientSecret: 'segredo',
});

describe('blingRefusal', () => {
  it("says Bling's description and each field's message", () => {
    const text = JSON.stringify({
      error: {
        type: 'VALIDATION_ERROR',
        message: 'Não foi possível salvar a venda',
        description: 'Verifique os campos',
        fields: [{ code: 12, msg: 'Produto não encontrado', element: 'itens.produto.id' }],
      },
    });
    expect(blingRefusal(text)).toBe('Verifique os campos Produto não encontrado');
  });

  it('says so when the answer is not Bling’s error', () => {
    expect(blingRefusal('<html>')).toBe('resposta inesperada do Bling');
    expect(blingRefusal('{}')).toBe('resposta inesperada do Bling');
  });
});

describe('the Bling client', () => {
  it('sends staff to authorize under the API address, with the state', () => {
    const url = new URL(bling.authorizeUrl('estado-1'));
    expect(url.origin + url.pathname).toBe('https://api.bling.test/Api/v3/oauth/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'app-1',
      state: 'estado-1',
    });
  });

  it("takes a notification's note only with the client secret's signature", () => {
    const body = JSON.stringify({ event: 'invoice.updated', data: { id: 123 } });
    const signed = `sha256=${createHmac('sha256', 'segredo').update(body).digest('hex')}`;
    expect(bling.notifiedInvoice(body, signed)).toBe('123');
    expect(bling.notifiedInvoice(body, null)).toBe('unsigned');
    expect(bling.notifiedInvoice(`${body} `, signed)).toBe('unsigned');
    const other = JSON.stringify({ event: 'order.updated', data: { id: 5 } });
    const otherSigned = `sha256=${createHmac('sha256', 'segredo').update(other).digest('hex')}`;
    expect(bling.notifiedInvoice(other, otherSigned)).toBeNull();
  });
});
