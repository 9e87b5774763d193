import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig: rate limits', () => {
  it('defaults to 600/min per token, 120/min per IP, and login attempts per 15 minutes', () => {
    const config = loadConfig({});
    expect(config.rateLimits).toEqual({
      credential: { points: 600, windowSeconds: 60 },
      ip: { points: 120, windowSeconds: 60 },
      'login-account': { points: 10, windowSeconds: 900 },
      'login-ip': { points: 100, windowSeconds: 900 },
    });
    expect(config.redisKeyPrefix).toBe('travelops:');
  });

  it('reads every limit from the environment', () => {
    const config = loadConfig({
      RATE_LIMIT_PER_TOKEN: '1000',
      RATE_LIMIT_PER_IP: '30',
      RATE_LIMIT_WINDOW_SECONDS: '10',
      LOGIN_LIMIT_PER_ACCOUNT: '5',
      LOGIN_LIMIT_PER_IP: '50',
      LOGIN_LIMIT_WINDOW_SECONDS: '600',
      REDIS_KEY_PREFIX: 'staging:',
    });
    expect(config.rateLimits).toEqual({
      credential: { points: 1000, windowSeconds: 10 },
      ip: { points: 30, windowSeconds: 10 },
      'login-account': { points: 5, windowSeconds: 600 },
      'login-ip': { points: 50, windowSeconds: 600 },
    });
    expect(config.redisKeyPrefix).toBe('staging:');
  });

  it('names every bad key at once', () => {
    expect(() =>
      loadConfig({ RATE_LIMIT_PER_TOKEN: '0', RATE_LIMIT_PER_IP: 'lots', REDIS_KEY_PREFIX: 'a b' }),
    ).toThrow(ConfigError);
    try {
      loadConfig({ RATE_LIMIT_PER_TOKEN: '0', RATE_LIMIT_PER_IP: 'lots', REDIS_KEY_PREFIX: 'a b' });
    } catch (error) {
      const message = (error as Error).message;
      for (const key of ['RATE_LIMIT_PER_TOKEN', 'RATE_LIMIT_PER_IP', 'REDIS_KEY_PREFIX']) {
        expect(message).toContain(key);
      }
    }
  });
});

describe('loadConfig: webhook receivers', () => {
  it.each([
    ['unset, outside production', {}, true],
    ['unset, in production', { NODE_ENV: 'production' }, false],
    ['true in production', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', NODE_ENV: 'production' }, true],
    ['0', { WEBHOOK_ALLOW_PRIVATE_URLS: '0' }, false],
  ])('WEBHOOK_ALLOW_PRIVATE_URLS %s', (_label, env, allowed) => {
    expect(loadConfig(env).allowPrivateWebhookUrls).toBe(allowed);
  });

  it('a value that is not a flag stops the start, naming the key', () => {
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE_URLS: 'yes' })).toThrow(/WEBHOOK_ALLOW_PRIVATE_URLS/);
  });
});

describe('loadConfig: every variable is checked at start', () => {
  it.each([
    ['loopback', 'loopback'],
    ['10.0.0.0/8, 127.0.0.1', ['10.0.0.0/8', '127.0.0.1']],
    ['fd00::/8', 'fd00::/8'],
    ['false', false],
  ])('TRUST_PROXY=%s is accepted', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it.each([
    ['TRUST_PROXY', 'banana'],
    ['TRUST_PROXY', 'true'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['TRUST_PROXY', 'loopback,banana'],
    ['HOST', 'not a host'],
    ['NODE_ENV', 'prod'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['REDIS_URL', 'localhost:6379'],
    ['PUBLIC_BASE_URL', 'example.com'],
    ['WORKER_IN_PROCESS', 'yes'],
    ['METRICS_TOKEN', 'short'],
    ['LOG_LEVEL', 'debugging'],
    ['LOG_FORMAT', 'xml'],
  ])('%s=%s stops the start with a message that names the key', (key, value) => {
    expect(() => loadConfig({ [key]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [key]: value })).toThrow(new RegExp(`\\b${key}: `));
  });
});

describe('loadConfig: metrics and logs', () => {
  it('metrics are off without METRICS_TOKEN; logs default to info with the format left to the terminal', () => {
    expect(loadConfig({})).toMatchObject({
      metricsToken: undefined,
      log: { level: 'info', format: undefined },
    });
  });

  it('reads METRICS_TOKEN, LOG_LEVEL and LOG_FORMAT', () => {
    expect(
      loadConfig({ METRICS_TOKEN: 'a-long-metrics-secret', LOG_LEVEL: 'warn', LOG_FORMAT: 'json' }),
    ).toMatchObject({ metricsToken: 'a-long-metrics-secret', log: { level: 'warn', format: 'json' } });
  });
});
