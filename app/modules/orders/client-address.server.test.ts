import { describe, expect, it } from 'vitest';

import { clientAddressHash, clientNetwork } from './client-address.server';

describe('the client address an order keeps', () => {
  it('takes an IPv4 address whole, also when IPv4-mapped', () => {
    expect(clientNetwork('203.0.113.7')).toBe('203.0.113.7');
    expect(clientNetwork('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientNetwork('::FFFF:cb00:7107')).toBe('203.0.113.7');
  });

  it('takes an IPv6 address as its /64 network, however it is written', () => {
    expect(clientNetwork('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:0DB8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientNetwork('::1')).toBe('0:0:0:0::/64');
  });

  it('knows nothing of what is not an address', () => {
    for (const value of ['', 'unknown', '203.0.113', '2001:db8::1::2', '203.0.113.7, 10.0.0.1']) {
      expect(clientNetwork(value), value).toBeNull();
      expect(clientAddressHash(value), value).toBeNull();
    }
  });

  it('keeps a hash, the same for one client and different for another', () => {
    const hash = clientAddressHash('203.0.113.7');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(clientAddressHash('::ffff:203.0.113.7')).toBe(hash);
    expect(clientAddressHash('203.0.113.8')).not.toBe(hash);
    expect(clientAddressHash('2001:db8:1:2::1')).toBe(clientAddressHash('2001:db8:1:2::9'));
    expect(clientAddressHash('2001:db8:1:2::1')).not.toBe(clientAddressHash('2001:db8:1:3::1'));
  });
});
