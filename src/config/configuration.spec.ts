import { join } from 'node:path';
import { ConfigError, loadConfig } from './configuration';

describe('loadConfig', () => {
  const root = '/repo';

  it('applies the documented defaults', () => {
    const config = loadConfig({}, root);
    expect(config.port).toBe(8090);
    expect(config.inferenceUrl).toBe('http://localhost:8000');
    expect(config.pbDataDir).toBe(join(process.cwd(), 'data', 'pb_data'));
    expect(config.databaseFile).toBe(join(process.cwd(), 'data', 'pb_data', 'data.db'));
    expect(config.logLevel).toBe('info');
    expect(config.catalogFile).toBe('/repo/catalog.json');
  });

  it('reads overrides and strips a trailing slash from URLs', () => {
    const config = loadConfig(
      { PORT: '80', INFERENCE_URL: 'http://inference:8000/', DATA_DIR: '/app/db', LOG_LEVEL: 'DEBUG' },
      root,
    );
    expect(config.port).toBe(80);
    expect(config.inferenceUrl).toBe('http://inference:8000');
    expect(config.pbDataDir).toBe('/app/db/pb_data');
    expect(config.logLevel).toBe('debug');
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ PORT: '-1' }, 'PORT'],
    [{ INFERENCE_URL: 'not a url' }, 'INFERENCE_URL'],
    [{ INFERENCE_URL: 'ftp://host' }, 'INFERENCE_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
    [{ GENERATE_MAX_INPUT_LENGTH: '0' }, 'GENERATE_MAX_INPUT_LENGTH'],
  ])('rejects %j naming %s', (env, variable) => {
    let error: unknown;
    try {
      loadConfig(env, root);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe(variable);
    expect((error as ConfigError).message).toContain(variable);
  });

  it('returns a frozen object', () => {
    const config = loadConfig({}, root);
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.generation)).toBe(true);
  });
});
