import {
  type GuestEmail,
  type GuestEmailSettings,
  type NotificationStores,
  planDepartureReminders,
  planHoldWarnings,
  planRequestedEmails,
} from '@travelops/domain/notifications';
import type { Clock, Logger, UnitOfWork } from '@travelops/domain/shared';
import type { MailTransport } from '@travelops/mail';
import { composeGuestEmail } from '@travelops/mail';
import type { RetryPolicy } from '@travelops/webhooks';
import type { Job } from '../worker.js';
import { decideAfterSend } from './policy.js';

/** How guest e-mails go out: through SMTP, or (no `SMTP_URL`) kept in the database for `/dev/mail`. */
export interface GuestEmailConfig {
  /** Null: nothing is sent; every message is written KEPT. */
  transport: MailTransport | null;
  /** The sender's address (`MAIL_FROM`); the display name is the workspace's. */
  fromAddress: string;
  /** Base of the guest's links (`PUBLIC_BASE_URL`). */
  publicBaseUrl: string;
  /** Sending attempts per workspace in any 60 s, all workers together (`MAIL_RATE_PER_MINUTE`). */
  perWorkspacePerMinute: number;
  /** Unpaid public holds are warned this many minutes before they lapse. */
  holdWarningMinutes: number;
}

export interface GuestEmailJobOptions extends GuestEmailConfig {
  /** On the pool: planning and claims each commit on their own (a claim is a lease). */
  uow: UnitOfWork<NotificationStores>;
  clock: Clock;
  logger: Logger;
  policy?: RetryPolicy;
  /** A claimed message is another worker's to send if this one has not finished by then. */
  leaseMs?: number;
  batchSize?: number;
  /** How often requests are turned into messages and due ones sent. */
  intervalMs?: number;
  /** How often the clock's e-mails (reminders, hold warnings) are looked for. */
  scanIntervalMs?: number;
}

const OUTCOME_OF = { SENT: 'sent', PENDING: 'retrying', FAILED: 'failed' } as const;

/** The `Message-ID` of a message: its id at the sender's domain, the same on every attempt. */
const messageIdOf = (email: GuestEmail, fromAddress: string) =>
  `<${email.id}@${fromAddress.split('@')[1] ?? 'travelops.invalid'}>`;

/**
 * The e-mail jobs: `deliver-guest-emails` turns requests into messages, then claims the due
 * ones (several workers never take the same one) and sends them, recording each outcome with
 * the webhooks' retry policy; `schedule-guest-emails` writes the reminders and hold warnings
 * the clock makes due. Without a transport, messages are written KEPT and nothing is sent.
 */
export function createGuestEmailJobs(options: GuestEmailJobOptions): Job[] {
  const { uow, clock, logger, transport } = options;
  const leaseMs = options.leaseMs ?? 60_000;
  const plan = {
    uow,
    clock,
    compose: composeGuestEmail,
    settings: {
      publicBaseUrl: options.publicBaseUrl,
      keep: transport === null,
      holdWarningMinutes: options.holdWarningMinutes,
    } satisfies GuestEmailSettings,
  };

  async function send(email: GuestEmail, mailer: MailTransport): Promise<void> {
    const outcome = await mailer.send({
      messageId: messageIdOf(email, options.fromAddress),
      from: { name: email.fromName, address: options.fromAddress },
      to: email.recipient,
      replyTo: email.replyTo,
      subject: email.subject,
      text: email.text,
      html: email.html,
      headers: email.headers,
      attachments: email.attachments,
    });
    const attempts = email.attempts + 1;
    const finished = clock.now();
    const decision = decideAfterSend({
      outcome,
      attempts,
      createdAt: new Date(email.createdAt),
      now: finished,
      ...(options.policy && { policy: options.policy }),
    });
    await uow.stores.guestEmails.recordAttempt(email.id, {
      status: decision.status,
      attempts,
      nextAttemptAt: decision.nextAttemptAt,
      lastError: outcome.ok ? null : outcome.error,
      sentAt: decision.status === 'SENT' ? finished : null,
    });
    // Ids and the outcome only: the address and the text are the guest's.
    logger.info(
      {
        job: 'deliver-guest-emails',
        emailId: email.id,
        kind: email.kind,
        workspaceId: email.workspaceId,
        bookingId: email.bookingId,
        attempt: attempts,
        outcome: OUTCOME_OF[decision.status],
        ...(!outcome.ok && { error: outcome.error }),
      },
      'guest e-mail attempt',
    );
  }

  const deliver: Job = {
    name: 'deliver-guest-emails',
    intervalMs: options.intervalMs ?? 500,
    async run(signal) {
      const batch = options.batchSize ?? 20;
      while (!signal.aborted && (await planRequestedEmails(plan, batch)) === batch) {
        // A full batch: more requests may be waiting.
      }
      if (!transport) return;
      while (!signal.aborted) {
        const claimed = await uow.stores.guestEmails.claimDue(clock.now(), {
          limit: batch,
          leaseMs,
          perWorkspacePerMinute: options.perWorkspacePerMinute,
        });
        if (claimed.length === 0) return;
        await Promise.all(claimed.map((email) => send(email, transport)));
      }
    },
  };

  const schedule: Job = {
    name: 'schedule-guest-emails',
    intervalMs: options.scanIntervalMs ?? 30_000,
    async run() {
      const reminders = await planDepartureReminders(plan);
      const warnings = await planHoldWarnings(plan);
      if (reminders || warnings) {
        logger.info(
          { job: 'schedule-guest-emails', reminders, holdWarnings: warnings },
          'guest e-mails written',
        );
      }
    },
  };

  return [deliver, schedule];
}
