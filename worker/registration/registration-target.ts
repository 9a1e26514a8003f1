import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';

import type { WorkerConfig } from '../config/worker-config';

export type Interfaces = NodeJS.Dict<NetworkInterfaceInfo[]>;

/** The first IPv4 address that is not a loopback one (interfaces in the order the system lists them). */
export function firstNonLoopbackIPv4(interfaces: Interfaces = networkInterfaces()): string | undefined {
  for (const addresses of Object.values(interfaces)) {
    for (const address of addresses ?? []) {
      if (address.family === 'IPv4' && !address.internal && !address.address.startsWith('127.')) {
        return address.address;
      }
    }
  }
  return undefined;
}

/**
 * The URL the worker registers: INFERENCE_PUBLIC_URL (or the hosting platform's), else SERVER_URL, else
 * `http://<first non-loopback IPv4>:<port>` (the hostname when the machine has no such address).
 */
export function registrationUrl(
  registration: WorkerConfig['registration'],
  port: number,
  hostname: string,
  interfaces?: Interfaces,
): string {
  if (registration.publicUrl) {
    return registration.publicUrl;
  }
  if (registration.serverUrl) {
    return registration.serverUrl;
  }
  return `http://${firstNonLoopbackIPv4(interfaces) ?? hostname}:${port}`;
}
