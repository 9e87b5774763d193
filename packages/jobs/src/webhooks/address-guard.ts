import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { fail, ok, unprocessable } from '@travelops/domain/shared';
import type { EndpointUrlCheck } from '@travelops/domain/webhooks';

/** Loopback, private, link-local, CGNAT, documentation, multicast and reserved IPv4: never a receiver in production. */
const BLOCKED_V4 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED_V4.addSubnet(net, prefix, 'ipv4');
}

/**
 * IPv6 is judged by allow-list: only global unicast (2000::/3) can be a receiver. That refuses
 * loopback, unspecified, IPv4-compatible (::/96) and IPv4-mapped (::ffff:0:0/96, in any
 * spelling: `[::ffff:0:7f00:1]`, `[::127.0.0.1]`), NAT64 (64:ff9b::/96), unique-local,
 * link-local and multicast at once. Inside 2000::/3 the special-purpose blocks go too.
 */
const GLOBAL_UNICAST_V6 = new BlockList();
GLOBAL_UNICAST_V6.addSubnet('2000::', 3, 'ipv6');
const SPECIAL_V6 = new BlockList();
for (const [net, prefix] of [
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['3fff::', 20],
] as const) {
  SPECIAL_V6.addSubnet(net, prefix, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return BLOCKED_V4.check(address, 'ipv4');
  if (family === 6) return !GLOBAL_UNICAST_V6.check(address, 'ipv6') || SPECIAL_V6.check(address, 'ipv6');
  return true;
}

export type AddressCheck =
  | { ok: true; addresses: string[] }
  | { ok: false; issue: 'private_address' | 'unresolvable_host' };

/** Resolves a URL's host and refuses it if any address is private (checked again at every delivery). */
export async function checkHost(hostname: string, allowPrivate: boolean): Promise<AddressCheck> {
  const host = hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await lookup(host, { all: true })).map((entry) => entry.address);
    } catch {
      return { ok: false, issue: 'unresolvable_host' };
    }
  }
  if (!allowPrivate && addresses.some(isPrivateAddress)) return { ok: false, issue: 'private_address' };
  return { ok: true, addresses };
}

/** The domain's check of an endpoint URL at registration: http(s), and a public address unless allowed. */
export function createEndpointUrlCheck(allowPrivate: boolean): EndpointUrlCheck {
  return async (url) => {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      return fail(unprocessable('Webhook URLs use http or https.', 'url', 'unsupported_scheme'));
    }
    if (parsed.username || parsed.password) {
      return fail(unprocessable('Webhook URLs carry no credentials.', 'url', 'credentials_in_url'));
    }
    const host = await checkHost(parsed.hostname, allowPrivate);
    if (!host.ok) {
      const message =
        host.issue === 'private_address'
          ? 'Webhook URLs must reach a public address.'
          : 'The webhook host does not resolve.';
      return fail(unprocessable(message, 'url', host.issue));
    }
    return ok(true);
  };
}
