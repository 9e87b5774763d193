import type { AddressInfo } from 'node:net';
import { createUnitOfWork } from '@travelops/db';
import type { Clock } from '@travelops/domain/shared';
import { createJobs, type Job } from '@travelops/jobs';
import { createSmtpTransport, type MailTransport } from '@travelops/mail';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { TestApi } from './harness.js';

/** One message as the SMTP server took it: the envelope, the raw bytes and the parsed message. */
export interface ReceivedEmail {
  envelope: { from: string; to: string[] };
  raw: string;
  mail: ParsedMail;
}

/** A real SMTP server on a local port, which can go down and come back on the same port. */
export interface TestSmtp {
  url: string;
  port: number;
  received: ReceivedEmail[];
  /** Recipients it answers 550 for (refused for good). */
  refuse: Set<string>;
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function startSmtp(): Promise<TestSmtp> {
  const received: ReceivedEmail[] = [];
  const refuse = new Set<string>();
  let server: SMTPServer | null = null;
  let port = 0;

  function listen(): Promise<void> {
    server = new SMTPServer({
      authOptional: true,
      // Plain SMTP on loopback: nodemailer would otherwise upgrade with STARTTLS.
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (refuse.has(address.address)) {
          const error = Object.assign(new Error('No such user here'), { responseCode: 550 });
          return callback(error);
        }
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', async () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          received.push({
            envelope: {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            },
            raw,
            mail: await simpleParser(raw),
          });
          callback();
        });
      },
    });
    const current = server;
    return new Promise((resolve, reject) => {
      current.once('error', reject);
      current.listen(port, '127.0.0.1', () => {
        port = (current.server.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  await listen();
  const smtp: TestSmtp = {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received,
    refuse,
    async stop() {
      const current = server;
      server = null;
      if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
    },
    start: listen,
  };
  return smtp;
}

/** The worker's e-mail jobs on the test API's database, with its own clock and SMTP (null: kept). */
export interface MailWorker {
  deliver(): Promise<void>;
  schedule(): Promise<void>;
  close(): void;
}

export function mailWorker(
  t: TestApi,
  clock: Clock,
  options: { smtpUrl: string | null; perWorkspacePerMinute?: number; publicBaseUrl?: string },
): MailWorker {
  const log = (level: string) => (fields: object, msg?: string) =>
    void t.logs.push(JSON.stringify({ level, msg, ...fields }));
  const transport: MailTransport | null = options.smtpUrl
    ? createSmtpTransport({ url: options.smtpUrl, timeoutMs: 2_000 })
    : null;
  const jobs = createJobs(
    {
      uow: createUnitOfWork(t.api.database.knex),
      clock,
      logger: { info: log('info'), warn: log('warn'), error: log('error') },
    },
    {
      allowPrivateWebhookUrls: true,
      mail: {
        transport,
        fromAddress: 'bookings@travelops.example',
        publicBaseUrl: options.publicBaseUrl ?? PUBLIC_BASE_URL,
        perWorkspacePerMinute: options.perWorkspacePerMinute ?? 1000,
        holdWarningMinutes: 5,
      },
    },
  );
  const run = (name: string) => {
    const job = jobs.find((candidate) => candidate.name === name) as Job;
    return job.run(new AbortController().signal);
  };
  return {
    deliver: () => run('deliver-guest-emails'),
    schedule: () => run('schedule-guest-emails'),
    close: () => transport?.close(),
  };
}

/** Where the test API says guests find their pages (links are checked against it). */
export const PUBLIC_BASE_URL = 'https://book.travelops.example';

/** The message's attachment named `booking.ics`, as text. */
export const calendarOf = (email: ReceivedEmail): string | undefined =>
  email.mail.attachments.find((a) => a.filename === 'booking.ics')?.content.toString('utf8');
