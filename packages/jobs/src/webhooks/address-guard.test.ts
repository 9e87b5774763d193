import { describe, expect, it } from 'vitest';
import { checkHost, createEndpointUrlCheck, isPrivateAddress } from './address-guard.js';

describe('isPrivateAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['::1', true],
    ['fd00::1', true],
    ['fe80::1', true],
    ['::ffff:127.0.0.1', true],
    ['not an address', true],
    ['93.184.216.34', false],
    ['2606:2800:220:1:248:1893:25c8:1946', false],
    // Every IPv6 range but global unicast is refused, whatever it embeds.
    ['::127.0.0.1', true],
    ['::ffff:0:7f00:1', true],
    ['::ffff:7f00:1', true],
    ['::ffff:93.184.216.34', true],
    ['::', true],
    ['64:ff9b::7f00:1', true],
    ['2001:db8::1', true],
    ['2001::1', true],
    ['2002:7f00:1::1', true],
    ['fc00::1', true],
    ['ff02::1', true],
    ['192.0.2.1', true],
    ['203.0.113.9', true],
    ['2a00:1450:4001:81b::200e', false],
  ])('%s: %s', (address, blocked) => {
    expect(isPrivateAddress(address)).toBe(blocked);
  });
});

describe('checkHost', () => {
  it('refuses a private literal unless private addresses are allowed', async () => {
    expect(await checkHost('127.0.0.1', false)).toEqual({ ok: false, issue: 'private_address' });
    expect(await checkHost('[::1]', true)).toEqual({ ok: true, addresses: ['::1'] });
    expect(await checkHost('[::127.0.0.1]', false)).toEqual({ ok: false, issue: 'private_address' });
    expect(await checkHost('[::ffff:0:7f00:1]', false)).toEqual({ ok: false, issue: 'private_address' });
  });
});

describe('createEndpointUrlCheck', () => {
  const check = createEndpointUrlCheck(false);

  it.each([
    ['ftp://example.com/hook', 'unsupported_scheme'],
    ['https://user:pw@example.com/hook', 'credentials_in_url'],
    ['http://127.0.0.1:8080/hook', 'private_address'],
  ])('refuses %s (%s)', async (url, issue) => {
    const result = await check(url);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ code: 'UNPROCESSABLE', details: [{ field: 'url', issue }] });
  });

  it('accepts a public address given literally', async () => {
    expect(await check('https://93.184.216.34/hook')).toEqual({ ok: true, value: true });
  });
});
