import { hasError, isStaticPix, parsePix } from 'pix-utils';
import { describe, expect, it } from 'vitest';

import { buildPixCode, pixTxid, type PixCodeInput } from './brcode';

const ORDER_ID = '3f2a9c1e-7b4d-4e8a-9f10-5c6d7e8f9a0b';
const EVP = '123e4567-e12b-42d1-a456-426655440000';

const input = (overrides: Partial<PixCodeInput> = {}): PixCodeInput => ({
  key: EVP,
  merchantName: 'Loja Vitrine',
  merchantCity: 'Curitiba',
  amountCents: 1999,
  txid: pixTxid(ORDER_ID),
  ...overrides,
});

/** Parses with pix-utils, an implementation independent of the one that built the code. */
function parse(code: string | null) {
  expect(code).not.toBeNull();
  const parsed = parsePix(code!);
  if (hasError(parsed)) throw new Error(`pix-utils refused ${code}: ${parsed.message}`);
  if (!isStaticPix(parsed)) throw new Error(`not a static PIX: ${code}`);
  return parsed;
}

/** CRC16-CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final XOR), as the BR Code uses. */
function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

describe('pixTxid', () => {
  it('keeps the first 25 letters and digits of the order id', () => {
    expect(pixTxid(ORDER_ID)).toBe('3f2a9c1e7b4d4e8a9f105c6d7');
    expect(pixTxid(ORDER_ID)).toMatch(/^[A-Za-z0-9]{25}$/);
  });
});

describe('buildPixCode', () => {
  it('round-trips key, amount, name, city and txid through pix-utils', () => {
    const parsed = parse(buildPixCode(input()));
    expect(parsed).toMatchObject({
      pixKey: EVP,
      transactionAmount: 19.99,
      merchantName: 'Loja Vitrine',
      merchantCity: 'Curitiba',
      txid: '3f2a9c1e7b4d4e8a9f105c6d7',
      countryCode: 'BR',
      transactionCurrency: '986',
    });
  });

  it('writes the amount from cents exactly, with two decimals', () => {
    const cases: [number, string][] = [
      [1, '0.01'],
      [10, '0.10'],
      [501, '5.01'],
      [1999, '19.99'],
      [2999, '29.99'],
      [10005, '100.05'],
      [123456, '1234.56'],
      [99999999999, '999999999.99'],
    ];
    for (const [cents, written] of cases) {
      const code = buildPixCode(input({ amountCents: cents }))!;
      expect(code).toContain(`54${String(written.length).padStart(2, '0')}${written}`);
      expect(parse(code).transactionAmount).toBe(cents / 100);
    }
    // Every cent value in a wide band: float cents (0.1 + 0.2 style) would go astray here.
    for (let cents = 501; cents <= 20_000; cents += 7) {
      const written = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
      expect(buildPixCode(input({ amountCents: cents }))).toContain(`${written}5802BR`);
    }
  });

  it('ends with a CRC16-CCITT-FALSE of everything before it', () => {
    for (const amountCents of [501, 1999, 123456]) {
      const code = buildPixCode(input({ amountCents }))!;
      expect(code.slice(-8, -4)).toBe('6304');
      expect(code.slice(-4)).toBe(crc16(code.slice(0, -4)));
    }
    // The reference vector of CRC-16/CCITT-FALSE, to show the function above is that CRC.
    expect(crc16('123456789')).toBe('29B1');
  });

  it('fails the parser when a byte changes, so the CRC really covers the code', () => {
    const code = buildPixCode(input())!;
    const tampered = code.replace('19.99', '10.99');
    expect(hasError(parsePix(tampered))).toBe(true);
  });

  it('folds accents and cuts a long name to 25 ASCII characters', () => {
    const parsed = parse(
      buildPixCode(input({ merchantName: 'Açaí do João Ltda Comércio de Alimentos' })),
    );
    expect(parsed.merchantName).toBe('Acai do Joao Ltda Comerci');
    expect(parsed.merchantName).toMatch(/^[\x20-\x7e]{1,25}$/);
  });

  it('folds and cuts the city to 15 ASCII characters', () => {
    const parsed = parse(buildPixCode(input({ merchantCity: 'São José dos Campos' })));
    expect(parsed.merchantCity).toBe('Sao Jose dos Ca');
    expect(parsed.merchantCity).toMatch(/^[\x20-\x7e]{1,15}$/);
  });

  it('keeps the whole code ASCII, so every bank app reads the same bytes', () => {
    const code = buildPixCode(
      input({ merchantName: 'Pão & Cia – Ñandú', merchantCity: 'Goiânia' }),
    )!;
    expect(code).toMatch(/^[\x20-\x7e]+$/);
    expect(parse(code)).toMatchObject({ merchantName: 'Pao & Cia Nandu', merchantCity: 'Goiania' });
  });

  it('writes a key in the canonical form the bank looks up', () => {
    expect(parse(buildPixCode(input({ key: '123.456.789-09' }))).pixKey).toBe('12345678909');
    expect(parse(buildPixCode(input({ key: 'Loja@Example.com' }))).pixKey).toBe('loja@example.com');
    expect(parse(buildPixCode(input({ key: '+55 11 99999-8888' }))).pixKey).toBe('+5511999998888');
  });

  it('returns null for an invalid key', () => {
    expect(buildPixCode(input({ key: 'não é chave' }))).toBeNull();
    expect(buildPixCode(input({ key: '111.111.111-11' }))).toBeNull();
    expect(buildPixCode(input({ key: '' }))).toBeNull();
  });

  it('returns null for a missing name or city, or one with nothing left after folding', () => {
    expect(buildPixCode(input({ merchantName: '' }))).toBeNull();
    expect(buildPixCode(input({ merchantCity: '   ' }))).toBeNull();
    expect(buildPixCode(input({ merchantName: '🛒🛒' }))).toBeNull();
  });

  it('returns null for an amount that is not a positive whole number of cents', () => {
    for (const amountCents of [0, -100, 19.99, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(buildPixCode(input({ amountCents }))).toBeNull();
    }
  });

  it('returns null for a txid outside 1 to 25 letters and digits', () => {
    expect(buildPixCode(input({ txid: '' }))).toBeNull();
    expect(buildPixCode(input({ txid: ORDER_ID }))).toBeNull();
    expect(buildPixCode(input({ txid: 'a'.repeat(26) }))).toBeNull();
  });
});
