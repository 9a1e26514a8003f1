import { Inject, Injectable } from '@nestjs/common';
import { RECORDS_CONFIG, RecordsConfig } from '../records.config';

/**
 * Failed sign-ins per (IP, collection, identity) in a sliding window: past the limit, further attempts are refused
 * with 429 before any password is checked, until the oldest failure leaves the window. A success clears the key.
 */
@Injectable()
export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(@Inject(RECORDS_CONFIG) private readonly config: RecordsConfig) {}

  private key(ip: string, collection: string, identity: string): string {
    return `${ip}\u0000${collection}\u0000${identity.trim().toLowerCase()}`;
  }

  private recent(key: string, now: number): number[] {
    const since = now - this.config.loginWindowMs;
    const list = (this.failures.get(key) ?? []).filter((at) => at > since);
    if (list.length) {
      this.failures.set(key, list);
    } else {
      this.failures.delete(key);
    }
    return list;
  }

  isBlocked(ip: string, collection: string, identity: string, now = Date.now()): boolean {
    return this.recent(this.key(ip, collection, identity), now).length >= this.config.loginMaxFailures;
  }

  recordFailure(ip: string, collection: string, identity: string, now = Date.now()): void {
    const key = this.key(ip, collection, identity);
    const list = this.recent(key, now);
    list.push(now);
    this.failures.set(key, list);
    if (this.failures.size > 10_000) {
      this.sweep(now);
    }
  }

  recordSuccess(ip: string, collection: string, identity: string): void {
    this.failures.delete(this.key(ip, collection, identity));
  }

  private sweep(now: number): void {
    for (const key of [...this.failures.keys()]) {
      this.recent(key, now);
    }
  }
}
