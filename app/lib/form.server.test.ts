import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { parseForm } from './form.server';

const schema = z.object({ intent: z.literal('go') });

function post(body: BodyInit | null, contentType?: string): Request {
  const headers = contentType ? { 'Content-Type': contentType } : undefined;
  return new Request('http://loja.test/acao', { method: 'POST', body, headers });
}

describe('parseForm', () => {
  it('reads url-encoded and multipart forms', async () => {
    const encoded = post('intent=go', 'application/x-www-form-urlencoded; charset=UTF-8');
    expect(await parseForm(encoded, schema)).toEqual({ ok: true, data: { intent: 'go' } });
    const multipart = new FormData();
    multipart.append('intent', 'go');
    expect(
      await parseForm(
        new Request('http://loja.test/', { method: 'POST', body: multipart }),
        schema,
      ),
    ).toEqual({ ok: true, data: { intent: 'go' } });
  });

  it.each([
    ['JSON', '{"intent":"go"}', 'application/json'],
    ['plain text', 'intent=go', 'text/plain'],
    ['no content type', 'intent=go', undefined],
    ['no body', null, undefined],
  ])('refuses %s with a message in Portuguese', async (_name, body, type) => {
    const result = await parseForm(post(body, type), schema);
    expect(result).toMatchObject({ ok: false, error: 'Envie os dados pelo formulário da loja.' });
  });

  it('refuses a broken multipart body without throwing', async () => {
    const broken = post(
      '--x\r\nContent-Disposition: form-data; name="intent"\r\n\r\ngo',
      'multipart/form-data; boundary=x',
    );
    expect(await parseForm(broken, schema)).toMatchObject({
      ok: false,
      error: 'Não foi possível ler o formulário. Recarregue a página e tente novamente.',
    });
    const noBoundary = post('intent=go', 'multipart/form-data');
    expect(await parseForm(noBoundary, schema)).toMatchObject({ ok: false });
  });
});
