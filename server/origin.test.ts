import { describe, expect, it } from 'vitest';

import { hostAllowList, originOf } from './origin';

describe('originOf', () => {
  it.each([
    ['http', 'localhost:3000', 'http://localhost:3000'],
    ['https', 'Loja.COM.br', 'https://loja.com.br'],
    ['https', 'loja.com.br:443', 'https://loja.com.br'],
    ['http', '[::1]:8080', 'http://[::1]:8080'],
    ['http', '192.168.0.10', 'http://192.168.0.10'],
  ])('reads %s://%s', (protocol, host, origin) => {
    expect(originOf(protocol, host)?.origin).toBe(origin);
  });

  it.each([
    ['http', 'a<b'],
    ['http', 'a b'],
    ['http', '[::1'],
    ['http', '[zz]'],
    ['http', 'loja.com.br:99999'],
    ['http', 'user@loja.com.br'],
    ['http', 'loja.com.br/x'],
    ['http', ''],
    ['http', undefined],
    ['http', `${'a'.repeat(300)}.com`],
    ['ftp', 'loja.com.br'],
    ['javascript', 'loja.com.br'],
  ])('refuses %s://%s', (protocol, host) => {
    expect(originOf(protocol, host)).toBeNull();
  });
});

describe('hostAllowList', () => {
  it('allows localhost and the listening address by default', () => {
    const allowed = hostAllowList({ HOST: '127.0.0.1' });
    expect(['localhost', '127.0.0.1', '[::1]'].every(allowed)).toBe(true);
    expect(allowed('evil.example')).toBe(false);
    expect(hostAllowList({ HOST: '10.1.2.3' })('10.1.2.3')).toBe(true);
  });

  it("allows this machine's addresses when listening on all of them", () => {
    const allowed = hostAllowList({ HOST: '0.0.0.0' });
    expect(allowed('127.0.0.1')).toBe(true);
    expect(allowed('evil.example')).toBe(false);
  });

  it('takes ALLOWED_HOSTS, with subdomain patterns, and always the hosts of PUBLIC_URL and ADMIN_URL', () => {
    const allowed = hostAllowList({
      HOST: '0.0.0.0',
      ALLOWED_HOSTS: ['.loja.com.br', 'admin.example'],
      PUBLIC_URL: 'https://www.minhaloja.com.br',
      ADMIN_URL: 'https://painel.minhaloja.com.br:8443',
    });
    expect(allowed('painel.minhaloja.com.br')).toBe(true);
    expect(allowed('loja.com.br')).toBe(true);
    expect(allowed('WWW.loja.com.br')).toBe(true);
    expect(allowed('admin.example')).toBe(true);
    expect(allowed('www.minhaloja.com.br')).toBe(true);
    expect(allowed('localhost')).toBe(false);
    expect(allowed('evilloja.com.br')).toBe(false);
    expect(hostAllowList({ HOST: '0.0.0.0', ALLOWED_HOSTS: ['*'] })('anything')).toBe(true);
  });
});
