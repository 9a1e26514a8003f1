import { loadRecordsConfig } from '../records.config';
import { LoginThrottle } from './login-throttle';

describe('LoginThrottle', () => {
  const throttle = (): LoginThrottle => new LoginThrottle(loadRecordsConfig({ LOGIN_MAX_FAILURES: '3' }));

  it('blocks an IP and identity after the limit within the window, then lets it go', () => {
    const t = throttle();
    const start = 1_000_000;
    for (let i = 0; i < 3; i++) {
      expect(t.isBlocked('1.2.3.4', 'users', 'a@b.co', start + i)).toBe(false);
      t.recordFailure('1.2.3.4', 'users', 'a@b.co', start + i);
    }
    expect(t.isBlocked('1.2.3.4', 'users', 'A@B.co ', start + 10)).toBe(true);
    // Other IPs, identities and collections are not affected.
    expect(t.isBlocked('1.2.3.5', 'users', 'a@b.co', start + 10)).toBe(false);
    expect(t.isBlocked('1.2.3.4', 'users', 'c@b.co', start + 10)).toBe(false);
    expect(t.isBlocked('1.2.3.4', '_superusers', 'a@b.co', start + 10)).toBe(false);
    expect(t.isBlocked('1.2.3.4', 'users', 'a@b.co', start + 60_001)).toBe(false);
  });

  it('forgets failures after a success', () => {
    const t = throttle();
    t.recordFailure('ip', 'users', 'x', 1);
    t.recordFailure('ip', 'users', 'x', 2);
    t.recordSuccess('ip', 'users', 'x');
    t.recordFailure('ip', 'users', 'x', 3);
    expect(t.isBlocked('ip', 'users', 'x', 4)).toBe(false);
  });
});
