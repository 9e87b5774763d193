import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { JOB_ENV, jobSettingsOf, MAIL_FROM_REQUIRED, mailFromIsGiven } from './settings.js';

// Both apps spread JOB_ENV into their env schema and call jobSettingsOf: this is how the
// worker and the API (running the jobs in-process) read the same keys the same way.
const EnvSchema = v.object(JOB_ENV);
const read = (env: Record<string, string>, production = false) =>
  jobSettingsOf(v.parse(EnvSchema, env), production);

describe('the jobs settings', () => {
  it('unset: e-mails kept (a sender no mail server accepts), 60 a minute, warned 5 minutes before', () => {
    expect(read({})).toEqual({
      allowPrivateWebhookUrls: true,
      mail: {
        smtpUrl: null,
        from: 'bookings@travelops.invalid',
        perWorkspacePerMinute: 60,
        holdWarningMinutes: 5,
      },
    });
  });

  it.each([
    ['unset, outside production', {}, false, true],
    ['unset, in production', {}, true, false],
    ['true in production', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }, true, true],
    ['1', { WEBHOOK_ALLOW_PRIVATE_URLS: '1' }, true, true],
    ['false', { WEBHOOK_ALLOW_PRIVATE_URLS: 'false' }, false, false],
    ['0', { WEBHOOK_ALLOW_PRIVATE_URLS: '0' }, false, false],
  ])('private webhook receivers: %s', (_label, env, production, allowed) => {
    expect(read(env, production).allowPrivateWebhookUrls).toBe(allowed);
  });

  it('reads SMTP_URL, MAIL_FROM, the rate and the warning', () => {
    const env = {
      SMTP_URL: 'smtps://mailer:s3cret@mail.example.com:465',
      MAIL_FROM: 'bookings@example.com',
      MAIL_RATE_PER_MINUTE: '20',
      MAIL_HOLD_WARNING_MINUTES: '3',
    };
    expect(read(env).mail).toEqual({
      smtpUrl: env.SMTP_URL,
      from: 'bookings@example.com',
      perWorkspacePerMinute: 20,
      holdWarningMinutes: 3,
    });
  });

  it.each([
    [{ SMTP_URL: 'http://user:hunter2@mail.example.com' }, 'SMTP_URL', 'must be an smtp:// or smtps:// URL'],
    [{ MAIL_FROM: 'Bookings <a@b.example>' }, 'MAIL_FROM', 'must be an e-mail address'],
    [{ MAIL_RATE_PER_MINUTE: '0' }, 'MAIL_RATE_PER_MINUTE', 'must be at least 1'],
    [{ MAIL_HOLD_WARNING_MINUTES: 'soon' }, 'MAIL_HOLD_WARNING_MINUTES', 'must be a whole number'],
    [{ WEBHOOK_ALLOW_PRIVATE_URLS: 'yes' }, 'WEBHOOK_ALLOW_PRIVATE_URLS', 'must be true, false, 1 or 0'],
  ])('%j: %s %s, never echoing a password', (env, key, message) => {
    const parsed = v.safeParse(EnvSchema, env);
    expect(parsed.success).toBe(false);
    const issues = parsed.issues?.map((issue) => `${v.getDotPath(issue)}: ${issue.message}`) ?? [];
    expect(issues.join('\n')).toContain(`${key}: ${message}`);
    expect(issues.join('\n')).not.toContain('hunter2');
  });

  it('SMTP_URL without MAIL_FROM is a problem; kept e-mails need no sender', () => {
    expect(mailFromIsGiven({ SMTP_URL: 'smtp://mail.example.com' })).toBe(false);
    expect(mailFromIsGiven({ SMTP_URL: 'smtp://mail.example.com', MAIL_FROM: 'a@b.example' })).toBe(true);
    expect(mailFromIsGiven({})).toBe(true);
    expect(MAIL_FROM_REQUIRED).toMatch(/^is required when SMTP_URL is set/);
  });
});
