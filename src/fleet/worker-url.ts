import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses a worker URL may never point at: link-local ranges (where cloud metadata services live) and the
 * well-known metadata endpoints. Loopback and private ranges stay allowed: workers usually sit on the same host
 * or LAN as the main service.
 */
const FORBIDDEN = new BlockList();
FORBIDDEN.addSubnet('169.254.0.0', 16, 'ipv4');
FORBIDDEN.addSubnet('fe80::', 10, 'ipv6');
FORBIDDEN.addAddress('100.100.100.200', 'ipv4'); // Alibaba Cloud metadata
FORBIDDEN.addAddress('fd00:ec2::254', 'ipv6'); // AWS metadata over IPv6
FORBIDDEN.addSubnet('0.0.0.0', 8, 'ipv4');
FORBIDDEN.addAddress('::', 'ipv6');
FORBIDDEN.addSubnet('224.0.0.0', 4, 'ipv4');
FORBIDDEN.addSubnet('ff00::', 8, 'ipv6');

const FORBIDDEN_HOSTS = new Set(['metadata.google.internal', 'metadata.goog', 'metadata']);

export class WorkerUrlError extends Error {}

function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) {
    return true;
  }
  // IPv4-mapped IPv6 (::ffff:169.254.169.254) is checked as the IPv4 address it carries.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) {
    return FORBIDDEN.check(mapped[1], 'ipv4');
  }
  return FORBIDDEN.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Canonical form of a worker URL (lower-case scheme and host, no trailing slash, no query or fragment). */
export function normaliseWorkerUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new WorkerUrlError('must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new WorkerUrlError('must use http or https');
  }
  if (url.username || url.password) {
    throw new WorkerUrlError('must not contain credentials; send the worker token as authToken');
  }
  if (url.search || url.hash) {
    throw new WorkerUrlError('must not have a query or fragment');
  }
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${url.host.toLowerCase()}${path}`;
}

/**
 * Refuses URLs that point at link-local or cloud-metadata addresses, resolving host names (every address they
 * resolve to must be allowed), so a registration cannot turn the main service into a proxy to those services.
 */
export async function assertWorkerUrlAllowed(normalised: string): Promise<void> {
  const host = new URL(normalised).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (FORBIDDEN_HOSTS.has(host)) {
    throw new WorkerUrlError('points at a cloud metadata service');
  }
  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
    } catch {
      throw new WorkerUrlError(`host "${host}" cannot be resolved`);
    }
  }
  if (addresses.length === 0 || addresses.some(isForbiddenAddress)) {
    throw new WorkerUrlError('points at a link-local or metadata address');
  }
}
