import { describe, expect, it } from 'vitest';

import { readToasts, redirectWithToast, refuseForm, successWithToast, toast } from './toast.server';

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
    expect(new Headers(fetched.init?.headers).get('Set-Cookie')).toMatch(
      /^vitrine_toast_[0-9a-f-]{36}=/,
    );

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
    expect(new Headers(saved.init?.headers).get('Set-Cookie')).toMatch(
      /^other=1, vitrine_toast_[0-9a-f-]{36}=/,
    );
  });
});

/** The browser's cookie jar, enough of it for these answers: set, replace and expire by name. */
function applySetCookies(jar: Map<string, string>, headers: Headers) {
  for (const line of headers.getSetCookie()) {
    const [pair] = line.split(';');
    const at = pair!.indexOf('=');
    const name = pair!.slice(0, at);
    if (/max-age=0|expires=thu, 01 jan 1970/i.test(line)) jar.delete(name);
    else jar.set(name, pair!.slice(at + 1));
  }
}

function reload(jar: Map<string, string>): Request {
  const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  return new Request('http://loja.test/admin/categories', { headers: { Cookie: cookie } });
}

describe('the toast that rides a redirect', () => {
  it('is read once by the reload and survives the late answer of an earlier reload', async () => {
    const jar = new Map<string, string>();
    // A switch flipped: its answer leaves a toast, and the reload that follows reads it.
    const flipped = (await successWithToast(post('cors'), 'Atualizada!')) as unknown as Answer;
    applySetCookies(jar, new Headers(flipped.init?.headers));
    const early = await readToasts(reload(jar));
    expect(early.toasts.map((t) => t.message)).toEqual(['Atualizada!']);
    // Before that reload's answer arrives, a delete is sent and answered with its own toast.
    const deleted = await redirectWithToast('/admin/categories', toast('success', 'Excluída!'));
    applySetCookies(jar, deleted.headers);
    applySetCookies(jar, early.headers);
    const late = await readToasts(reload(jar));
    expect(late.toasts.map((t) => t.message)).toEqual(['Excluída!']);
    applySetCookies(jar, late.headers);
    expect((await readToasts(reload(jar))).toasts).toEqual([]);
  });

  it('ignores a forged or broken toast cookie and clears it', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const forged = btoa(JSON.stringify({ id, kind: 'fatal', message: 'x' }));
    const read = await readToasts(
      new Request('http://loja.test/admin', {
        headers: {
          Cookie: `vitrine_toast_${id}=${forged}; vitrine_toast_${id.replace('0', '1')}=%%`,
        },
      }),
    );
    expect(read.toasts).toEqual([]);
    expect(read.headers.getSetCookie()).toHaveLength(2);
  });
});
