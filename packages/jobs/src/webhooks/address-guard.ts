import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { type EndpointUrlCheck, fail, ok, unprocessable } from '@travelops/domain';

/** Loopback, private, link-local, CGNAT, multicast and unspecified ranges: never a receiver in production. */
const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family === 6) {
    // An IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    return mapped ? BLOCKED.check(mapped[1] as string, 'ipv4') : BLOCKED.check(address, 'ipv6');
  }
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
