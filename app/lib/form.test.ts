import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { FORM_MESSAGES, parseFormData, sitePath } from './form';

function form(entries: [string, string | Blob][]): FormData {
  const data = new FormData();
  for (const [key, value] of entries) data.append(key, value);
  return data;
}

describe('parseFormData', () => {
  const schema = z.object({
    name: z.string().min(1, { error: 'Informe o nome.' }),
    age: z.string(),
  });

  it('gives the checked values', () => {
    expect(
      parseFormData(
        form([
          ['name', 'Ana'],
          ['age', '30'],
        ]),
        schema,
      ),
    ).toEqual({
      ok: true,
      data: { name: 'Ana', age: '30' },
    });
  });

  it("keeps the schema's messages and says the rest in Portuguese, field by field", () => {
    expect(parseFormData(form([['name', '']]), schema)).toEqual({
      ok: false,
      error: 'Informe o nome.',
      fieldErrors: { name: 'Informe o nome.', age: FORM_MESSAGES.invalid },
      // Sent back so a form shown without JavaScript keeps what the shopper typed.
      values: { name: '' },
    });
    expect(
      parseFormData(
        form([
          ['name', new Blob(['x'])],
          ['age', '1'],
        ]),
        schema,
      ),
    ).toMatchObject({
      ok: false,
      fieldErrors: { name: FORM_MESSAGES.invalid },
    });
  });

  it('refuses a NUL in any field', () => {
    expect(
      parseFormData(
        form([
          ['name', 'A\u0000na'],
          ['age', '1'],
        ]),
        schema,
      ),
    ).toEqual({
      ok: false,
      error: FORM_MESSAGES.invalid,
      fieldErrors: {},
      values: {},
    });
  });

  it('refuses a repeated field unless it may repeat', () => {
    const repeated = form([
      ['name', 'Ana'],
      ['name', 'Bia'],
      ['age', '1'],
    ]);
    expect(parseFormData(repeated, schema)).toEqual({
      ok: false,
      error: FORM_MESSAGES.repeated,
      fieldErrors: {},
      values: {},
    });
    const tags = z.object({ tag: z.array(z.string()) });
    expect(
      parseFormData(
        form([
          ['tag', 'a'],
          ['tag', 'b'],
        ]),
        tags,
        { repeatable: ['tag'] },
      ),
    ).toEqual({ ok: true, data: { tag: ['a', 'b'] } });
  });
});

describe('sitePath', () => {
  it.each(['/', '/cart', '/products?q=fone&pagina=2', '/%F0%9F%98%80', '/a/b#x'])(
    'accepts %s',
    (path) => expect(sitePath.safeParse(path).success).toBe(true),
  );

  it.each([
    '//evil.example',
    '/\\evil.example',
    'https://evil.example',
    'cart',
    '',
    '/\u0000',
    '/\u007f',
    '/a b',
    '/😀',
    '/a\r\nSet-Cookie: x=1',
    `/${'a'.repeat(2000)}`,
  ])('refuses %j', (path) => expect(sitePath.safeParse(path).success).toBe(false));
});
