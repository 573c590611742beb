import { describe, expect, it } from 'vitest';

import { redactUrl, requestLogLevel } from './logger.server';

describe('redactUrl', () => {
  it('hides an order link’s chave and keeps the rest of the address', () => {
    expect(redactUrl('/order-confirmation?orderId=abc&chave=s3cr3t&paymentId=p1')).toBe(
      '/order-confirmation?orderId=abc&chave=[redacted]&paymentId=p1',
    );
  });

  it('hides token-, key- and password-like values whatever their case or encoding', () => {
    expect(redactUrl('/x?TOKEN=a&access_token=b&api_key=c&Senha=d&%63have=e&q=teclado')).toBe(
      '/x?TOKEN=[redacted]&access_token=[redacted]&api_key=[redacted]&Senha=[redacted]&%63have=[redacted]&q=teclado',
    );
  });

  it('hides the value of a name that cannot be decoded, and leaves addresses without a query', () => {
    expect(redactUrl('/x?%E0%A4%A=1&b')).toBe('/x?%E0%A4%A=[redacted]&b');
    expect(redactUrl('/products/teclado')).toBe('/products/teclado');
  });
});

describe('requestLogLevel', () => {
  it('keeps answered requests out of the default log, and refusals and failures in it', () => {
    expect([200, 204, 302, 303, 304].map((status) => requestLogLevel(status))).toEqual(
      Array(5).fill('debug'),
    );
    expect([400, 403, 404, 429].map((status) => requestLogLevel(status))).toEqual(
      Array(4).fill('warn'),
    );
    expect(requestLogLevel(500)).toBe('error');
    expect(requestLogLevel(200, new Error('aborted'))).toBe('error');
  });
});
