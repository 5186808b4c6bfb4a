import { describe, expect, it } from 'vitest';
import { clientAddressKey } from './client-address.ts';

describe('clientAddressKey', () => {
  it('writes one IPv6 address one way, whatever its spelling', () => {
    const spellings = ['2001:0db8:0009::0001', '2001:DB8:9:0:0:0:0:1', '2001:db8:9::1', ' 2001:db8:9::1 '];
    expect(new Set(spellings.map(clientAddressKey))).toEqual(new Set(['2001:db8:9:0::/64']));
  });

  it('counts IPv6 by its /64 network', () => {
    expect(clientAddressKey('2001:db8:9::ffff:1')).toBe('2001:db8:9:0::/64');
    expect(clientAddressKey('2001:db8:9:0:abcd:ef01:2345:6789')).toBe('2001:db8:9:0::/64');
    expect(clientAddressKey('2001:db8:9:1::1')).toBe('2001:db8:9:1::/64');
    expect(clientAddressKey('::1')).toBe('0:0:0:0::/64');
    expect(clientAddressKey('fe80::1%eth0')).toBe(clientAddressKey('fe80::2'));
    expect(clientAddressKey('2001:db8::192.0.2.1')).toBe('2001:db8:0:0::/64');
  });

  it('counts an IPv4-mapped IPv6 address as the IPv4 address', () => {
    expect(clientAddressKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(clientAddressKey('::FFFF:c000:0201')).toBe('192.0.2.1');
    expect(clientAddressKey('0:0:0:0:0:ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(clientAddressKey('192.0.2.1')).toBe('192.0.2.1');
  });

  it('keeps what is no address as its lowercase text', () => {
    expect(clientAddressKey('Unknown')).toBe('unknown');
    expect(clientAddressKey('2001:db8:::1')).toBe('2001:db8:::1');
  });
});
