import { describe, expect, it } from 'vitest';

import { FORM_MESSAGES, parseFormData } from '~/lib/form';

import { cartIntentSchema } from './intent';

const ID = '5a3b1e00-0000-4000-8000-000000000d01';
const VARIANT = '5a3b1e00-0000-4000-8000-0000000000a1';

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  return data;
}

function parseCartIntent(data: FormData) {
  return parseFormData(data, cartIntentSchema);
}

describe('the cart form', () => {
  it.each([
    [
      { intent: 'add', productId: ID },
      { intent: 'add', productId: ID, quantity: 1 },
    ],
    [
      { intent: 'add', productId: ID, quantity: '' },
      { intent: 'add', productId: ID, quantity: 1 },
    ],
    [
      { intent: 'buy', productId: ID, quantity: ' 3 ' },
      { intent: 'buy', productId: ID, quantity: 3 },
    ],
    [
      { intent: 'set', productId: ID, quantity: '0' },
      { intent: 'set', productId: ID, quantity: 0 },
    ],
    [
      { intent: 'set', productId: ID, quantity: '9999' },
      { intent: 'set', productId: ID, quantity: 9999 },
    ],
    [
      { intent: 'remove', productId: ID.toUpperCase() },
      { intent: 'remove', productId: ID },
    ],
    [
      { intent: 'add', variantId: VARIANT.toUpperCase(), quantity: '2' },
      { intent: 'add', variantId: VARIANT, quantity: 2 },
    ],
    [
      { intent: 'add', productId: ID, variantId: VARIANT },
      { intent: 'add', productId: ID, variantId: VARIANT, quantity: 1 },
    ],
    [
      { intent: 'set', productId: '', variantId: VARIANT, quantity: '4' },
      { intent: 'set', variantId: VARIANT, quantity: 4 },
    ],
    [
      { intent: 'remove', variantId: VARIANT },
      { intent: 'remove', variantId: VARIANT },
    ],
    [{ intent: 'clear', productId: 'ignored' }, { intent: 'clear' }],
  ])('reads %o', (fields, intent) => {
    expect(parseCartIntent(form(fields))).toEqual({ ok: true, data: intent });
  });

  it.each([
    [{}, 'Ação inválida no carrinho.'],
    [{ intent: 'delete', productId: ID }, 'Ação inválida no carrinho.'],
    [{ intent: 'add' }, 'Informe o produto.'],
    [{ intent: 'remove', productId: '', variantId: '' }, 'Informe o produto.'],
    [{ intent: 'add', variantId: '42' }, 'Variante inválida.'],
    [{ intent: 'set', variantId: `${VARIANT}x`, quantity: '1' }, 'Variante inválida.'],
    [{ intent: 'add', productId: '42' }, 'Produto inválido.'],
    [{ intent: 'remove', productId: `${ID}' or 1=1` }, 'Produto inválido.'],
    [{ intent: 'add', productId: ID, quantity: '0' }, 'Informe uma quantidade de 1 a 9999.'],
    [{ intent: 'add', productId: ID, quantity: '-1' }, 'Informe uma quantidade de 1 a 9999.'],
    [{ intent: 'add', productId: ID, quantity: '1.5' }, 'Informe uma quantidade de 1 a 9999.'],
    [{ intent: 'add', productId: ID, quantity: 'dois' }, 'Informe uma quantidade de 1 a 9999.'],
    [{ intent: 'buy', productId: ID, quantity: '10000' }, 'Informe uma quantidade de 1 a 9999.'],
    [{ intent: 'set', productId: ID }, 'Informe uma quantidade de 0 a 9999.'],
    [{ intent: 'set', productId: ID, quantity: '' }, 'Informe uma quantidade de 0 a 9999.'],
  ])('refuses %o with a message in Portuguese', (fields, error) => {
    expect(parseCartIntent(form(fields))).toMatchObject({ ok: false, error });
  });

  it('refuses a file where text was expected', () => {
    const data = form({ productId: ID });
    data.append('intent', new Blob(['add']));
    expect(parseCartIntent(data)).toMatchObject({ ok: false, error: 'Ação inválida no carrinho.' });
  });

  it('refuses a repeated field rather than guessing which value was meant', () => {
    const data = form({ intent: 'set', productId: ID, quantity: '2' });
    data.append('quantity', '7');
    expect(parseCartIntent(data)).toMatchObject({ ok: false, error: FORM_MESSAGES.repeated });
  });

  it('says which field is wrong', () => {
    expect(parseCartIntent(form({ intent: 'add', productId: ID, quantity: 'x' }))).toEqual({
      ok: false,
      error: 'Informe uma quantidade de 1 a 9999.',
      fieldErrors: { quantity: 'Informe uma quantidade de 1 a 9999.' },
      values: { intent: 'add', productId: ID, quantity: 'x' },
    });
  });
});
