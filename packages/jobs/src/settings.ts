import * as v from 'valibot';

// The jobs' settings, once for both apps that run them (the worker, and the API when it runs
// them in-process): each app spreads JOB_ENV into its own env schema, parses its environment
// at start, and hands the values to jobSettingsOf. Messages are ours, not valibot's defaults,
// which quote the received value (an SMTP URL holds a password).

/** `true`/`1` or `false`/`0`, as the apps read their flags. */
export const EnvFlagSchema = v.pipe(
  v.picklist(['true', 'false', '1', '0'], 'must be true, false, 1 or 0'),
  v.transform((value) => value === 'true' || value === '1'),
);

const Count = v.pipe(
  v.string(),
  v.regex(/^\d{1,9}$/, 'must be a whole number'),
  v.transform(Number),
  v.minValue(1, 'must be at least 1'),
);

/** `smtp://user:password@host:587` (STARTTLS when offered) or `smtps://...:465` (TLS from the start). */
const SmtpUrl = v.pipe(
  v.string(),
  v.check(
    (value) => URL.canParse(value) && ['smtp:', 'smtps:'].includes(new URL(value).protocol),
    'must be an smtp:// or smtps:// URL, such as smtp://user:password@mail.example.com:587',
  ),
);

/** The sender's address of guest e-mails (the display name is each workspace's name). */
const MailFrom = v.pipe(
  v.string(),
  v.regex(
    /^[^\s@<>"',;]+@[^\s@<>"',;]+\.[^\s@<>"',;]+$/,
    'must be an e-mail address such as bookings@example.com',
  ),
);

/** The environment keys of the jobs: webhook receivers' addresses and guest e-mails. */
export const JOB_ENV = {
  WEBHOOK_ALLOW_PRIVATE_URLS: v.optional(EnvFlagSchema),
  SMTP_URL: v.optional(SmtpUrl),
  MAIL_FROM: v.optional(MailFrom),
  MAIL_RATE_PER_MINUTE: v.optional(Count, '60'),
  MAIL_HOLD_WARNING_MINUTES: v.optional(Count, '5'),
};

type JobEnv = v.InferOutput<v.ObjectSchema<typeof JOB_ENV, undefined>>;

/** Said of MAIL_FROM when SMTP_URL is set without it (`mailFromIsGiven` is false). */
export const MAIL_FROM_REQUIRED =
  'is required when SMTP_URL is set: the address guest e-mails come from (bookings@example.com)';

/** E-mails that are sent need a sender; kept ones (no SMTP_URL) get `KEPT_MAIL_FROM`. */
export const mailFromIsGiven = (env: Pick<JobEnv, 'SMTP_URL' | 'MAIL_FROM'>): boolean =>
  env.SMTP_URL === undefined || env.MAIL_FROM !== undefined;

/** Only ever shown in /dev/mail: without SMTP nothing leaves the machine. */
const KEPT_MAIL_FROM = 'bookings@travelops.invalid';

export interface JobSettings {
  /**
   * Webhook endpoints may be private or loopback addresses (`WEBHOOK_ALLOW_PRIVATE_URLS`);
   * unset, allowed except in production (development receivers live on localhost).
   */
  allowPrivateWebhookUrls: boolean;
  /** Guest e-mails: sent through SMTP, or (no SMTP_URL) kept in the database for /dev/mail. */
  mail: {
    smtpUrl: string | null;
    from: string;
    /** Sending attempts per workspace per minute, all workers together. */
    perWorkspacePerMinute: number;
    /** Unpaid public holds are warned this many minutes before they lapse. */
    holdWarningMinutes: number;
  };
}

/** The jobs' settings from the parsed JOB_ENV keys; `production` is NODE_ENV=production. */
export function jobSettingsOf(env: JobEnv, production: boolean): JobSettings {
  return {
    allowPrivateWebhookUrls: env.WEBHOOK_ALLOW_PRIVATE_URLS ?? !production,
    mail: {
      smtpUrl: env.SMTP_URL ?? null,
      from: env.MAIL_FROM ?? KEPT_MAIL_FROM,
      perWorkspacePerMinute: env.MAIL_RATE_PER_MINUTE,
      holdWarningMinutes: env.MAIL_HOLD_WARNING_MINUTES,
    },
  };
}
