import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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
    ['unset, in production', { NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox' }, false],
    [
      'true in production',
      { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox' },
      true,
    ],
    ['0', { WEBHOOK_ALLOW_PRIVATE_URLS: '0' }, false],
  ])('WEBHOOK_ALLOW_PRIVATE_URLS %s', (_label, env, allowed) => {
    expect(loadConfig(env).allowPrivateWebhookUrls).toBe(allowed);
  });

  it('a value that is not a flag stops the start, naming the key', () => {
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE_URLS: 'yes' })).toThrow(/WEBHOOK_ALLOW_PRIVATE_URLS/);
  });
});

describe('loadConfig: PostgreSQL', () => {
  it.each([
    ['unset', {}, true],
    ['true', { PG_PREPARED_STATEMENTS: 'true' }, true],
    ['false', { PG_PREPARED_STATEMENTS: 'false' }, false],
    ['0', { PG_PREPARED_STATEMENTS: '0' }, false],
  ])('PG_PREPARED_STATEMENTS %s: hot statements named %s', (_label, env, named) => {
    expect(loadConfig(env).preparedStatements).toBe(named);
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
    ['PG_PREPARED_STATEMENTS', 'no'],
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

describe('loadConfig: payments (the sandbox only when asked)', () => {
  const stripe = {
    PAYMENT_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_51abc',
    STRIPE_WEBHOOK_SECRET: 'whsec_abc123',
  };

  /** The message of the refusal, or null when the environment is accepted. */
  const refusal = (env: Record<string, string>) => {
    try {
      loadConfig(env);
      return null;
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
  };

  it('outside production the sandbox is the default', () => {
    expect(loadConfig({}).payments).toEqual({ provider: 'sandbox' });
    expect(loadConfig({ NODE_ENV: 'development' }).payments).toEqual({ provider: 'sandbox' });
  });

  it('in production there is no default: the start is refused, naming PAYMENT_PROVIDER', () => {
    expect(refusal({ NODE_ENV: 'production' })).toMatch(
      /PAYMENT_PROVIDER: is required when NODE_ENV=production/,
    );
  });

  it('production may ask for the sandbox explicitly', () => {
    const config = loadConfig({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox' });
    expect(config).toMatchObject({ payments: { provider: 'sandbox' }, production: true });
  });

  it('stripe without its secrets is refused, naming both keys, beside any other bad key', () => {
    const message = refusal({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'stripe', PORT: 'eighty' });
    expect(message).toContain('STRIPE_SECRET_KEY: is required when PAYMENT_PROVIDER=stripe');
    expect(message).toContain('STRIPE_WEBHOOK_SECRET: is required when PAYMENT_PROVIDER=stripe');
    expect(message).toContain('PORT');
    expect(refusal({ ...stripe, STRIPE_WEBHOOK_SECRET: '' })).toMatch(
      /^Invalid environment: STRIPE_WEBHOOK_SECRET: is required/,
    );
  });

  it.each([
    [
      'a publishable key',
      { STRIPE_SECRET_KEY: 'pk_test_51abc' },
      'STRIPE_SECRET_KEY: must be a Stripe secret key',
    ],
    [
      'a secret that is not a signing secret',
      { STRIPE_WEBHOOK_SECRET: 'abc' },
      'STRIPE_WEBHOOK_SECRET: must be',
    ],
    ['an API URL that is not http(s)', { STRIPE_API_URL: 'ftp://stripe' }, 'STRIPE_API_URL'],
    ['an unknown provider', { PAYMENT_PROVIDER: 'paypal' }, 'PAYMENT_PROVIDER: must be sandbox or stripe'],
  ])('refuses %s, naming the key (and never echoing the secret)', (_label, bad, named) => {
    const message = refusal({ ...stripe, ...bad, NODE_ENV: 'production' });
    expect(message).toContain(named);
    expect(message).not.toContain('sk_test_51abc');
  });

  it('stripe with its secrets (and optionally another Stripe-compatible server)', () => {
    expect(loadConfig({ ...stripe, NODE_ENV: 'production' }).payments).toEqual({
      provider: 'stripe',
      secretKey: 'sk_test_51abc',
      webhookSecret: 'whsec_abc123',
    });
    expect(loadConfig({ ...stripe, STRIPE_API_URL: 'http://127.0.0.1:12111' }).payments).toMatchObject({
      apiUrl: 'http://127.0.0.1:12111',
    });
  });
});

describe('loadConfig: guest e-mails', () => {
  it('without SMTP_URL e-mails are kept, and /dev/mail shows them outside production only', () => {
    expect(loadConfig({})).toMatchObject({
      mail: { smtpUrl: null, perWorkspacePerMinute: 60, holdWarningMinutes: 5 },
      devMail: true,
    });
    expect(loadConfig({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox' }).devMail).toBe(false);
  });

  it('with SMTP_URL and MAIL_FROM they are sent, and /dev/mail is off', () => {
    const config = loadConfig({
      SMTP_URL: 'smtp://mailer:s3cret@mail.example.com:587',
      MAIL_FROM: 'bookings@example.com',
      MAIL_RATE_PER_MINUTE: '30',
      MAIL_HOLD_WARNING_MINUTES: '10',
    });
    expect(config.mail).toEqual({
      smtpUrl: 'smtp://mailer:s3cret@mail.example.com:587',
      from: 'bookings@example.com',
      perWorkspacePerMinute: 30,
      holdWarningMinutes: 10,
    });
    expect(config.devMail).toBe(false);
  });

  it.each([
    [{ SMTP_URL: 'smtp://mail.example.com' }, 'MAIL_FROM: is required when SMTP_URL is set'],
    [{ SMTP_URL: 'https://user:hunter2@mail.example.com', MAIL_FROM: 'a@b.example' }, 'SMTP_URL: must be'],
    [{ MAIL_FROM: 'not an address' }, 'MAIL_FROM: must be'],
    [{ MAIL_RATE_PER_MINUTE: '0' }, 'MAIL_RATE_PER_MINUTE'],
  ])('refuses %j, naming the key and never echoing a password', (env, problem) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    try {
      loadConfig(env);
    } catch (error) {
      expect((error as Error).message).toContain(problem);
      expect((error as Error).message).not.toContain('hunter2');
    }
  });
});

describe('loadConfig: the console and the widget the API serves', () => {
  // A console build and a widget bundle, as apps/console and apps/widget build them.
  const dir = mkdtempSync(join(tmpdir(), 'served-files-'));
  const consoleDir = join(dir, 'console');
  const widgetScript = join(dir, 'widget.js');
  mkdirSync(consoleDir);
  writeFileSync(join(consoleDir, 'index.html'), '<!doctype html>');
  writeFileSync(widgetScript, 'console.log("widget");');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('unset: neither is served (the API starts all the same)', () => {
    expect(loadConfig({})).toMatchObject({ consoleDir: undefined, widgetScript: undefined });
  });

  it('reads both as absolute paths, relative ones from the working directory', () => {
    expect(
      loadConfig({ CONSOLE_DIR: relative(process.cwd(), consoleDir), WIDGET_SCRIPT: widgetScript }),
    ).toMatchObject({ consoleDir, widgetScript });
  });

  it('a path without the build stops the start, naming each key', () => {
    const env = { CONSOLE_DIR: dir, WIDGET_SCRIPT: consoleDir };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(/CONSOLE_DIR: must be the directory of the built operator console/);
    expect(() => loadConfig(env)).toThrow(/WIDGET_SCRIPT: must be the path of the built booking widget/);
  });
});
