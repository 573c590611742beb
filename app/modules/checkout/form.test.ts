import { describe, expect, it } from 'vitest';

import { FORM_MESSAGES, parseFormData } from '~/lib/form';

import { CHECKOUT_MESSAGES, checkoutFormSchema } from './form';
import { BRAZIL_STATES } from './states';

const KEY = '0b6f4c8e-3a1d-4f2b-9c7e-5d8a1b2c3d4e';

const VALID = {
  customerName: '  Maria   da Silva ',
  customerEmail: ' Maria.Silva@Exemplo.COM.br ',
  customerCpf: '123.456.789-09',
  customerPhone: '(11) 98765-4321',
  zipCode: '01310-100',
  street: 'Avenida Paulista',
  number: '1578',
  complement: '',
  neighborhood: 'Bela Vista',
  city: 'São Paulo',
  state: 'sp',
  paymentMethod: 'pix',
  idempotencyKey: KEY,
};

function form(fields: Record<string, string | undefined>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined) data.append(key, value);
  }
  return data;
}

function parse(overrides: Record<string, string | undefined> = {}) {
  return parseFormData(form({ ...VALID, ...overrides }), checkoutFormSchema);
}

function fieldError(field: string, value: string | undefined) {
  const result = parse({ [field]: value });
  return result.ok ? undefined : result.fieldErrors[field];
}

describe('the checkout form', () => {
  it('accepts a complete submission and normalizes it', () => {
    expect(parse()).toEqual({
      ok: true,
      data: {
        customerName: 'Maria da Silva',
        customerEmail: 'maria.silva@exemplo.com.br',
        customerCpf: '12345678909',
        customerPhone: '11987654321',
        zipCode: '01310100',
        street: 'Avenida Paulista',
        number: '1578',
        complement: undefined,
        neighborhood: 'Bela Vista',
        city: 'São Paulo',
        state: 'SP',
        paymentMethod: 'pix',
        couponCode: '',
        idempotencyKey: KEY,
      },
    });
  });

  it('keeps a complement, on one line', () => {
    const result = parse({ complement: ' Apto 12\n Bloco B ' });
    expect(result.ok && result.data.complement).toBe('Apto 12 Bloco B');
  });

  it('takes PIX when no payment method is sent, and only the methods a store may offer', () => {
    const result = parse({ paymentMethod: undefined });
    expect(result.ok && result.data.paymentMethod).toBe('pix');
    for (const method of ['credit_card', 'boleto']) {
      const chosen = parse({ paymentMethod: method });
      expect(chosen.ok && chosen.data.paymentMethod).toBe(method);
    }
    // Whether this store offers it is the checkout's check, against its provider and settings.
    expect(fieldError('paymentMethod', 'paypal')).toBe(CHECKOUT_MESSAGES.paymentMethod);
    expect(fieldError('paymentMethod', 'debit_card')).toBe(CHECKOUT_MESSAGES.paymentMethod);
  });

  it('names every missing required field', () => {
    const result = parseFormData(form({ idempotencyKey: KEY }), checkoutFormSchema);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.fieldErrors).toEqual({
      customerName: 'Informe seu nome completo.',
      customerEmail: 'Informe seu e-mail.',
      customerCpf: 'Informe seu CPF.',
      customerPhone: 'Informe seu telefone.',
      zipCode: 'Informe o CEP.',
      street: 'Informe a rua.',
      number: 'Informe o número.',
      neighborhood: 'Informe o bairro.',
      city: 'Informe a cidade.',
      state: 'Selecione o estado.',
    });
  });

  it('says the same for blank fields', () => {
    expect(fieldError('street', '   ')).toBe('Informe a rua.');
    expect(fieldError('customerEmail', ' ')).toBe('Informe seu e-mail.');
    expect(fieldError('customerCpf', '')).toBe('Informe seu CPF.');
  });

  it('wants a name of at least 2 characters and at most 120', () => {
    expect(fieldError('customerName', ' A ')).toBe('Informe seu nome completo.');
    expect(fieldError('customerName', 'Jo')).toBeUndefined();
    expect(fieldError('customerName', 'a'.repeat(121))).toBe('Use no máximo 120 caracteres.');
  });

  it.each([
    ['street', 160],
    ['number', 20],
    ['complement', 80],
    ['neighborhood', 80],
    ['city', 80],
  ])('caps %s at %i characters', (field, max) => {
    expect(fieldError(field, 'a'.repeat(max))).toBeUndefined();
    expect(fieldError(field, 'a'.repeat(max + 1))).toBe(`Use no máximo ${max} caracteres.`);
  });

  it.each(['maria', 'maria@', '@exemplo.com', 'maria @exemplo.com', 'maria@exemplo'])(
    'refuses the e-mail %s',
    (email) => {
      expect(fieldError('customerEmail', email)).toBe('E-mail inválido.');
    },
  );

  it('refuses an e-mail over 254 characters', () => {
    expect(fieldError('customerEmail', `${'a'.repeat(64)}@${'b'.repeat(186)}.com`)).toBe(
      'E-mail inválido.',
    );
  });

  it.each(['12345678909', '529.982.247-25', ' 529 982 247 25 '])('accepts the CPF %s', (cpf) => {
    expect(fieldError('customerCpf', cpf)).toBeUndefined();
  });

  it.each([
    ['wrong check digits', '123.456.789-00'],
    ['repeated digits', '111.111.111-11'],
    ['all zeros', '00000000000'],
    ['too short', '123.456.789-0'],
    ['too long', '123.456.789-090'],
    ['letters', '123.456.789-0a'],
    ['absurdly long', '1'.repeat(1000)],
  ])('says CPF inválido for %s', (_, cpf) => {
    expect(fieldError('customerCpf', cpf)).toBe('CPF inválido');
  });

  it.each([
    ['(11) 98765-4321', '11987654321'],
    ['(11) 3000-0000', '1130000000'],
    ['21 2222-3333', '2122223333'],
    ['+55 11 98765-4321', '11987654321'],
  ])('accepts the phone %s as %s', (phone, digits) => {
    const result = parse({ customerPhone: phone });
    expect(result.ok && result.data.customerPhone).toBe(digits);
  });

  it.each([
    ['9 digits', '(11) 8765-432'],
    ['12 digits', '(11) 98765-43210'],
    ['no area code', '98765-4321'],
    ['an area code that does not exist', '(00) 98765-4321'],
    ['a landline that cannot be one', '(11) 1234-5678'],
    ['letters', '(11) 98765-432a'],
  ])('refuses a phone with %s', (_, phone) => {
    expect(fieldError('customerPhone', phone)).toBe(
      'Telefone inválido. Use (xx) xxxxx-xxxx ou (xx) xxxx-xxxx.',
    );
  });

  it.each(['01310-100', '01310100', ' 01310-100 '])('accepts the CEP %s', (cep) => {
    const result = parse({ zipCode: cep });
    expect(result.ok && result.data.zipCode).toBe('01310100');
  });

  it.each(['0131-0100', '0131010', '013101000', '01310-10a', '01.310-100', '01310--100'])(
    'refuses the CEP %s',
    (cep) => {
      expect(fieldError('zipCode', cep)).toBe('CEP inválido. Use o formato 00000-000.');
    },
  );

  it('lists all 27 federative units by name, and accepts each', () => {
    expect(BRAZIL_STATES).toHaveLength(27);
    expect(BRAZIL_STATES[0]).toEqual({ code: 'AC', name: 'Acre' });
    expect(BRAZIL_STATES.find((state) => state.code === 'DF')?.name).toBe('Distrito Federal');
    const names = BRAZIL_STATES.map((state) => state.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'pt-BR')));
    for (const { code } of BRAZIL_STATES) {
      const result = parse({ state: code });
      expect(result.ok && result.data.state).toBe(code);
    }
  });

  it.each(['XX', 'São Paulo', 'S', ''])('refuses the state %s', (state) => {
    expect(fieldError('state', state)).toBe('Selecione o estado.');
  });

  it('refuses a submission without a valid idempotency key', () => {
    const message = 'Formulário expirado. Recarregue a página e tente de novo.';
    expect(fieldError('idempotencyKey', undefined)).toBe(message);
    expect(fieldError('idempotencyKey', '')).toBe(message);
    expect(fieldError('idempotencyKey', 'not-a-uuid')).toBe(message);
    const result = parse({ idempotencyKey: KEY.toUpperCase() });
    expect(result.ok && result.data.idempotencyKey).toBe(KEY);
  });

  it('refuses a field sent twice', () => {
    const data = form(VALID);
    data.append('state', 'RJ');
    expect(parseFormData(data, checkoutFormSchema)).toMatchObject({
      ok: false,
      error: FORM_MESSAGES.repeated,
    });
  });

  it('calls a file where text belongs junk', () => {
    const data = form({ ...VALID, street: undefined });
    data.append('street', new File(['x'], 'x.txt'));
    const result = parseFormData(data, checkoutFormSchema);
    expect(!result.ok && result.fieldErrors.street).toBe(FORM_MESSAGES.invalid);
  });

  it('runs the same way on plain objects, as the browser checks before sending', () => {
    const result = checkoutFormSchema.safeParse({ ...VALID, customerCpf: '111.111.111-11' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([
      [['customerCpf'], 'CPF inválido'],
    ]);
  });
});
