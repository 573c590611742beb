import { describe, expect, it } from 'vitest';

import { MASKED_LENGTH, maskCep } from './masks';
import { maskCpf, maskPhone } from './person-masks';

describe('the input masks', () => {
  it.each([
    ['', ''],
    ['1', '1'],
    ['123', '123'],
    ['1234', '123.4'],
    ['123456', '123.456'],
    ['1234567', '123.456.7'],
    ['123456789', '123.456.789'],
    ['1234567890', '123.456.789-0'],
    ['12345678909', '123.456.789-09'],
    // Typing past the end, pasting a masked value, deleting back into the mask.
    ['123.456.789-091', '123.456.789-09'],
    ['123.456.789-09', '123.456.789-09'],
    ['123.456.', '123.456'],
    ['abc 123', '123'],
  ])('masks the CPF %j as %j', (input, masked) => {
    expect(maskCpf(input)).toBe(masked);
  });

  it.each([
    ['', ''],
    ['1', '(1'],
    ['11', '(11'],
    ['119', '(11) 9'],
    ['1198765', '(11) 98765'],
    ['11987654', '(11) 98765-4'],
    // 10 digits read as a landline until an 11th makes it a mobile.
    ['1130000000', '(11) 3000-0000'],
    ['11987654321', '(11) 98765-4321'],
    ['(11) 98765-43210', '(11) 98765-4321'],
    ['+55 11 98765-4321', '(11) 98765-4321'],
  ])('masks the phone %j as %j', (input, masked) => {
    expect(maskPhone(input)).toBe(masked);
  });

  it.each([
    ['', ''],
    ['0131', '0131'],
    ['01310', '01310'],
    ['013101', '01310-1'],
    ['01310100', '01310-100'],
    ['01310-1009', '01310-100'],
    ['01.310-100', '01310-100'],
  ])('masks the CEP %j as %j', (input, masked) => {
    expect(maskCep(input)).toBe(masked);
  });

  it('fits the full masks in the inputs’ lengths', () => {
    expect(maskCpf('12345678909')).toHaveLength(MASKED_LENGTH.cpf);
    expect(maskPhone('11987654321')).toHaveLength(MASKED_LENGTH.phone);
    expect(maskCep('01310100')).toHaveLength(MASKED_LENGTH.zipCode);
  });
});
