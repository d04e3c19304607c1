import { BlockList, isIPv4, isIPv6 } from 'node:net';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/**
 * Whether a URL's hostname is this machine: 127.0.0.0/8, ::1 (also as an IPv4-mapped address) or
 * `localhost`. Other names count as remote even when they resolve to loopback: the answer must not
 * depend on DNS, which the person running the tool may not control.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '').toLowerCase();
  if (host === 'localhost') return true;
  if (isIPv4(host)) return LOOPBACK.check(host, 'ipv4');
  if (isIPv6(host)) return LOOPBACK.check(host, 'ipv6');
  return false;
}
