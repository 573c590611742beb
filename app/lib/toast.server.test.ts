import { describe, expect, it } from 'vitest';

import { refuseForm, successWithToast, toast } from './toast.server';

type Answer = { data: Record<string, unknown>; init: ResponseInit | null };

function post(mode?: string, path = '/admin/acao'): Request {
  const headers = mode ? { 'Sec-Fetch-Mode': mode } : undefined;
  return new Request(`http://loja.test${path}`, { method: 'POST', headers });
}

describe('the reply of a form action', () => {
  it('refuses with a 400, the error toast, each field and the values, plus what the form asks', () => {
    const refused = refuseForm('Erro ao salvar categoria: Informe o nome.', {
      error: 'Informe o nome.',
      fieldErrors: { name: 'Informe o nome.' },
      intent: 'create',
    }) as unknown as Answer;
    expect(refused.init?.status).toBe(400);
    expect(refused.data).toMatchObject({
      ok: false,
      intent: 'create',
      error: 'Informe o nome.',
      fieldErrors: { name: 'Informe o nome.' },
      values: {},
      toast: { kind: 'error', message: 'Erro ao salvar categoria: Informe o nome.' },
    });
    const conflict = refuseForm('Pedido alterado.', {}, 409) as unknown as Answer;
    expect(conflict.init?.status).toBe(409);
    expect(conflict.data).not.toHaveProperty('error');
  });

  it('answers a success with its toast, in a cookie too unless the form posted the page', async () => {
    const fetched = (await successWithToast(post('cors'), 'Salvo!', {
      id: 'p1',
    })) as unknown as Answer;
    expect(fetched.data).toMatchObject({ ok: true, id: 'p1', toast: { kind: 'success' } });
    expect(new Headers(fetched.init?.headers).get('Set-Cookie')).toMatch(/^vitrine_toast=/);

    const warning = toast('error', 'Pago depois de cancelado.');
    const plain = (await successWithToast(post('navigate'), warning)) as unknown as Answer;
    expect(plain.data.toast).toEqual(warning);
    expect(plain.init?.headers).toBeUndefined();
  });

  it('gives a storefront success no toast cookie, and keeps the headers it is given', async () => {
    const cart = (await successWithToast(
      post('cors', '/cart'),
      'Adicionado!',
      { count: 2 },
      {
        'Set-Cookie': 'cart=1',
      },
    )) as unknown as Answer;
    expect(cart.data).toMatchObject({ ok: true, count: 2, toast: { message: 'Adicionado!' } });
    expect(new Headers(cart.init?.headers).get('Set-Cookie')).toBe('cart=1');

    const saved = (await successWithToast(
      post('cors'),
      'Salvo!',
      {},
      {
        'Set-Cookie': 'other=1',
      },
    )) as unknown as Answer;
    expect(new Headers(saved.init?.headers).get('Set-Cookie')).toMatch(/^other=1, vitrine_toast=/);
  });
});
