import { BlockList, isIP } from 'node:net';

/**
 * Live webhooks may only reach the public internet: never loopback, private, link-local, carrier-grade
 * NAT, multicast or cloud metadata addresses (SSRF). The check runs on the resolved address of the
 * very connection that sends, so a DNS answer that changes after the endpoint was created changes nothing.
 */
const BLOCKED = new BlockList();
for (const [network, prefix] of [
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
  BLOCKED.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv6');
}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !BLOCKED.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return isPublicAddress(mapped[1]);
    return !BLOCKED.check(address, 'ipv6');
  }
  return false;
}

export type UrlProblem = string | null;

/** Why `url` cannot be a webhook endpoint in this mode (null when it can). */
export function endpointUrlProblem(url: string, live: boolean): UrlProblem {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'url must be an absolute http(s) URL';
  }
  if (!['http:', 'https:'].includes(parsed.protocol)) return 'url must be http or https';
  if (parsed.username || parsed.password) return 'url must not carry credentials';
  if (!live) return null;
  if (parsed.protocol !== 'https:') return 'live endpoints must use https';
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !isPublicAddress(host)) return 'live endpoints must use a public address';
  if (/^(localhost|.*\.localhost|.*\.local|.*\.internal)$/i.test(host)) return 'live endpoints must use a public address';
  return null;
}
