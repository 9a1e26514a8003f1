import { ConfigError } from '../config/configuration';
import { loadRecordsConfig } from './records.config';

describe('records configuration', () => {
  it('has PocketBase-like defaults', () => {
    expect(loadRecordsConfig({})).toEqual({
      realtimeIdleTimeoutMs: 300_000,
      authTokenTtlSeconds: 604_800,
      superuserTokenTtlSeconds: 86_400,
      fileTokenTtlSeconds: 120,
      loginMaxFailures: 5,
      loginWindowMs: 60_000,
    });
  });

  it('reads overrides and names the bad variable', () => {
    expect(loadRecordsConfig({ REALTIME_IDLE_TIMEOUT_MS: '500' }).realtimeIdleTimeoutMs).toBe(500);
    expect(() => loadRecordsConfig({ REALTIME_IDLE_TIMEOUT_MS: 'soon' })).toThrow(ConfigError);
    expect(() => loadRecordsConfig({ LOGIN_MAX_FAILURES: '0' })).toThrow(/LOGIN_MAX_FAILURES/);
  });
});
