import { describe, expect, it } from 'vitest';
import { parseWorkerEnv } from './config.js';

describe('parseWorkerEnv', () => {
  it.each([
    ['unset', {}],
    ['empty', { DATABASE_URL: '' }],
  ])('DATABASE_URL %s means no server database', (_label, env) => {
    expect(parseWorkerEnv(env)).toMatchObject({
      ok: true,
      value: { databaseUrl: null, allowPrivateWebhookUrls: true },
    });
  });

  it('hot statements are named prepared statements unless PG_PREPARED_STATEMENTS=false', () => {
    expect(parseWorkerEnv({})).toMatchObject({ ok: true, value: { preparedStatements: true } });
    expect(parseWorkerEnv({ PG_PREPARED_STATEMENTS: 'false' })).toMatchObject({
      ok: true,
      value: { preparedStatements: false },
    });
    const refused = parseWorkerEnv({ PG_PREPARED_STATEMENTS: 'no' });
    expect(refused.ok ? [] : refused.error).toEqual(['PG_PREPARED_STATEMENTS: must be true, false, 1 or 0']);
  });

  it.each(['postgres://travelops:pw@localhost:5432/travelops', 'postgresql://db.internal/travelops'])(
    'accepts %s',
    (url) => {
      expect(parseWorkerEnv({ DATABASE_URL: url, UNRELATED: 'x' })).toMatchObject({
        ok: true,
        value: { databaseUrl: url, allowPrivateWebhookUrls: true },
      });
    },
  );

  it.each(['not a url', 'mysql://user:hunter2@localhost/db'])(
    'rejects %s, naming the key and not echoing the value',
    (url) => {
      const result = parseWorkerEnv({ DATABASE_URL: url });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error).toHaveLength(1);
      expect(result.error[0]).toMatch(/^DATABASE_URL: /);
      expect(result.error.join('\n')).not.toContain(url);
    },
  );

  it.each([
    ['unset, outside production', {}, true],
    ['unset, in production', { NODE_ENV: 'production' }, false],
    ['empty, in production', { WEBHOOK_ALLOW_PRIVATE_URLS: '', NODE_ENV: 'production' }, false],
    ['true in production', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', NODE_ENV: 'production' }, true],
    ['1', { WEBHOOK_ALLOW_PRIVATE_URLS: '1', NODE_ENV: 'production' }, true],
    ['false', { WEBHOOK_ALLOW_PRIVATE_URLS: 'false' }, false],
    ['0', { WEBHOOK_ALLOW_PRIVATE_URLS: '0' }, false],
  ])('WEBHOOK_ALLOW_PRIVATE_URLS %s', (_label, env, allowed) => {
    const result = parseWorkerEnv(env);
    expect(result.ok && result.value.allowPrivateWebhookUrls).toBe(allowed);
  });

  it('names every bad key at once', () => {
    const result = parseWorkerEnv({ DATABASE_URL: 'not a url', WEBHOOK_ALLOW_PRIVATE_URLS: 'yes' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toEqual([
      expect.stringMatching(/^DATABASE_URL: /),
      'WEBHOOK_ALLOW_PRIVATE_URLS: must be true, false, 1 or 0',
    ]);
  });
});

describe('parseWorkerEnv: logs and metrics', () => {
  it('reads LOG_LEVEL, LOG_FORMAT, and METRICS_PORT with METRICS_TOKEN; metrics listen on 127.0.0.1 unless METRICS_HOST says', () => {
    const parsed = parseWorkerEnv({
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'pretty',
      METRICS_PORT: '9464',
      METRICS_TOKEN: 'a-long-metrics-secret',
    });
    expect(parsed).toMatchObject({
      ok: true,
      value: {
        log: { level: 'warn', format: 'pretty' },
        metrics: { host: '127.0.0.1', port: 9464, token: 'a-long-metrics-secret' },
      },
    });
    const everywhere = parseWorkerEnv({
      METRICS_HOST: '0.0.0.0',
      METRICS_PORT: '9464',
      METRICS_TOKEN: 'a-long-metrics-secret',
    });
    expect(everywhere).toMatchObject({ ok: true, value: { metrics: { host: '0.0.0.0', port: 9464 } } });
    expect(parseWorkerEnv({})).toMatchObject({ ok: true, value: { log: { level: 'info' }, metrics: null } });
  });

  it.each([
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ LOG_FORMAT: 'xml' }, 'LOG_FORMAT'],
    [{ METRICS_PORT: '9464' }, 'METRICS_TOKEN'],
    [{ METRICS_TOKEN: 'a-long-metrics-secret' }, 'METRICS_PORT'],
    [{ METRICS_TOKEN: 'short', METRICS_PORT: '9464' }, 'METRICS_TOKEN'],
    [
      { METRICS_HOST: 'not a host', METRICS_PORT: '9464', METRICS_TOKEN: 'a-long-metrics-secret' },
      'METRICS_HOST',
    ],
    [{ NODE_ENV: 'prod' }, 'NODE_ENV'],
  ])('%j is refused, naming %s', (env, key) => {
    const parsed = parseWorkerEnv(env);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.join('; ')).toContain(`${key}: `);
  });
});

describe('parseWorkerEnv: guest e-mails', () => {
  it('keeps e-mails without SMTP_URL, and links to localhost outside production', () => {
    expect(parseWorkerEnv({})).toMatchObject({
      ok: true,
      value: {
        publicBaseUrl: 'http://localhost:3000',
        mail: { smtpUrl: null, perWorkspacePerMinute: 60, holdWarningMinutes: 5 },
      },
    });
  });

  it('reads SMTP_URL, MAIL_FROM, the rate and the warning, and the public address without a trailing slash', () => {
    const env = {
      SMTP_URL: 'smtps://mailer:s3cret@mail.example.com:465',
      MAIL_FROM: 'bookings@example.com',
      MAIL_RATE_PER_MINUTE: '20',
      MAIL_HOLD_WARNING_MINUTES: '3',
      PUBLIC_BASE_URL: 'https://book.example.com/',
    };
    expect(parseWorkerEnv(env)).toMatchObject({
      ok: true,
      value: {
        publicBaseUrl: 'https://book.example.com',
        mail: {
          smtpUrl: env.SMTP_URL,
          from: 'bookings@example.com',
          perWorkspacePerMinute: 20,
          holdWarningMinutes: 3,
        },
      },
    });
  });

  it.each([
    [{ SMTP_URL: 'smtp://mail.example.com' }, 'MAIL_FROM: is required'],
    [
      { NODE_ENV: 'production', DATABASE_URL: 'postgres://db.internal/travelops' },
      'PUBLIC_BASE_URL: is required',
    ],
    [{ SMTP_URL: 'http://user:hunter2@mail.example.com', MAIL_FROM: 'a@b.example' }, 'SMTP_URL: must be'],
    [{ MAIL_FROM: 'Bookings <a@b.example>' }, 'MAIL_FROM: must be'],
    [{ MAIL_RATE_PER_MINUTE: '0' }, 'MAIL_RATE_PER_MINUTE: must be'],
  ])('refuses %j, naming the key and never echoing a password', (env, problem) => {
    const result = parseWorkerEnv(env);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.join('\n')).toContain(problem);
    expect(result.error.join('\n')).not.toContain('hunter2');
  });
});
