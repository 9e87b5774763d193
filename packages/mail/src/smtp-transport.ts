import { createTransport } from 'nodemailer';

/** One message as handed to SMTP: the text is final, the sender only frames it. */
interface OutgoingEmail {
  /** Stable across attempts: a receiving server or client that sees it twice may drop the copy. */
  messageId: string;
  from: { name: string; address: string };
  to: string;
  replyTo: string | null;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  attachments: { filename: string; contentType: string; content: string }[];
}

export type SendOutcome =
  | { ok: true }
  /** `permanent`: the server refused the recipient or the message itself (5xx); trying again will not help. */
  | { ok: false; error: string; permanent: boolean };

export interface MailTransport {
  send(email: OutgoingEmail): Promise<SendOutcome>;
  close(): void;
}

interface SmtpError {
  code?: string;
  command?: string;
  responseCode?: number;
  permanent?: boolean;
  message?: string;
}

/** What was refused for good: the recipient (RCPT TO) or the message (DATA), with a 5xx reply. */
const REFUSED_FOR_GOOD = new Set(['RCPT TO', 'DATA']);

/**
 * Sends through the SMTP server of `url` (`smtp://user:pass@host:587`, `smtps://...:465`),
 * over a small pool of connections. Timeouts stay well inside the delivery lease, so a hung
 * server costs an attempt, never a message sent twice by two workers.
 */
export function createSmtpTransport(options: { url: string; timeoutMs?: number }): MailTransport {
  const timeout = options.timeoutMs ?? 15_000;
  const transporter = createTransport({
    pool: true,
    url: options.url,
    maxConnections: 3,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout * 2,
    // Nothing of a guest's message goes to the log.
    logger: false,
    debug: false,
  });
  return {
    async send(email) {
      try {
        await transporter.sendMail({
          messageId: email.messageId,
          from: { name: email.from.name, address: email.from.address },
          to: email.to,
          ...(email.replyTo && { replyTo: email.replyTo }),
          subject: email.subject,
          text: email.text,
          html: email.html,
          headers: email.headers,
          attachments: email.attachments.map((attachment) => ({
            filename: attachment.filename,
            contentType: attachment.contentType,
            content: attachment.content,
          })),
        });
        return { ok: true };
      } catch (caught) {
        const error = caught as SmtpError;
        const permanent = Boolean(error.permanent && error.command && REFUSED_FOR_GOOD.has(error.command));
        // The code and the server's reply, never the message: it holds the guest's data.
        const reason = [error.code, error.command, error.responseCode].filter(Boolean).join(' ');
        return { ok: false, error: reason || 'send failed', permanent };
      }
    },
    close() {
      transporter.close();
    },
  };
}
