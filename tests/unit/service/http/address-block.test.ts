import { describe, expect, it } from 'vitest';
import { addressBlock } from '../../../../src/service/http/address-block';

describe('addressBlock', () => {
  it('keeps an IPv4 address whole', () => {
    expect(addressBlock('127.0.0.1')).toBe('127.0.0.1');
    expect(addressBlock('203.0.113.7')).toBe('203.0.113.7');
  });

  it('reads an IPv4-mapped IPv6 address as its IPv4 address, in either spelling', () => {
    expect(addressBlock('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressBlock('::ffff:cb00:7107')).toBe('203.0.113.7');
    expect(addressBlock('0:0:0:0:0:ffff:7f00:1')).toBe('127.0.0.1');
  });

  it('names an IPv6 address by its /64, so one network is one block', () => {
    const block = '2001:db8:1:2::/64';
    expect(addressBlock('2001:db8:1:2::1')).toBe(block);
    expect(addressBlock('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe(block);
    expect(addressBlock('2001:DB8:1:2:a:b:c:d')).toBe(block);
    expect(addressBlock('2001:db8:1:2::1%eth0')).toBe(block);
    expect(addressBlock('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(addressBlock('::1')).toBe('0:0:0:0::/64');
    expect(addressBlock('fe80::1:2:3:4')).toBe('fe80:0:0:0::/64');
    // A trailing dotted IPv4 in an address that is not IPv4-mapped is two groups of the address.
    expect(addressBlock('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64');
  });

  it('returns what is not an address as it is', () => {
    expect(addressBlock('')).toBe('');
    expect(addressBlock('not an address')).toBe('not an address');
  });
});
