import { getPublicBooking } from '@travelops/domain/guests';
import {
  type GuestEmail,
  getGuestEmail,
  listGuestEmails,
  unsubscribeFromReminders,
} from '@travelops/domain/notifications';
import { escapeHtml } from '@travelops/html';
import express, { type Request, type Response, type Router } from 'express';
import { pagePolicy } from './csp.js';
import type { HttpDeps } from './deps.js';

/** Longer path segments name no record (as on every route). */
const MAX_SEGMENT_LENGTH = 100;

const STYLE =
  'body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1c2430}' +
  'table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #e1e4e8;vertical-align:top}' +
  'pre{white-space:pre-wrap;background:#f6f8fa;padding:1rem;border-radius:4px}small{color:#5a6472}button{font-size:1rem;padding:.5rem 1rem}';

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;

const segment = (req: Request, name: string): string | null => {
  const value = String(req.params[name]);
  return value.length <= MAX_SEGMENT_LENGTH && !value.includes('\u0000') ? value : null;
};

/** A guest's link (or a message that holds one) is a credential: never cached, indexed or leaked through a Referer. */
function noStore(res: Response, csp: string) {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Robots-Tag', 'noindex');
  res.setHeader('Content-Security-Policy', csp);
}

/**
 * The message's own HTML, as a mail client would show it: its inline styles, nothing else
 * (no script, no request anywhere), in a sandbox of its own origin.
 */
const MESSAGE_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; sandbox";

function messageRow(email: GuestEmail): string {
  return `<tr><td><a href="/dev/mail/${encodeURIComponent(email.id)}">${escapeHtml(email.subject)}</a><br><small>${escapeHtml(email.kind)}</small></td><td>${escapeHtml(email.recipient)}</td><td>${escapeHtml(email.fromName)}</td><td>${escapeHtml(email.status)}</td><td><small>${escapeHtml(email.createdAt)}</small></td></tr>`;
}

function messagePage(email: GuestEmail, mailFrom: string | undefined): string {
  const headers: [string, string][] = [
    ['From', mailFrom ? `${email.fromName} <${mailFrom}>` : email.fromName],
    ['To', email.recipient],
    ...(email.replyTo ? [['Reply-To', email.replyTo] as [string, string]] : []),
    ['Subject', email.subject],
    ...Object.entries(email.headers),
    ['Status', `${email.status}${email.lastError ? ` (${email.lastError})` : ''}`],
    ['Booking', email.bookingId],
    ['Workspace', email.workspaceId],
    ['Written', email.createdAt],
  ];
  const attachments = email.attachments
    .map(
      (attachment) =>
        `<h3>${escapeHtml(attachment.filename)} <small>${escapeHtml(attachment.contentType)}</small></h3><pre>${escapeHtml(attachment.content)}</pre>`,
    )
    .join('');
  return page(
    email.subject,
    `<p><a href="/dev/mail">All messages</a> · <a href="/dev/mail/${encodeURIComponent(email.id)}/html">The HTML part, as sent</a></p>` +
      `<table>${headers.map(([name, value]) => `<tr><th>${escapeHtml(name)}</th><td>${escapeHtml(value)}</td></tr>`).join('')}</table>` +
      `<h2>Plain text</h2><pre>${escapeHtml(email.text)}</pre>${attachments ? `<h2>Attachments</h2>${attachments}` : ''}`,
  );
}

/**
 * `/dev/mail`: the messages written while no SMTP server is configured (`SMTP_URL` unset), so
 * a newcomer sees what guests would get. Development only (never in production): it shows every
 * workspace's guest e-mails, guest links included, to whoever can reach the API.
 */
export function devMailRouter(deps: HttpDeps): Router {
  const router = express.Router();
  const csp = pagePolicy({ https: deps.config.publicBaseUrl.startsWith('https:'), inlineStyles: [STYLE] });

  router.get('/dev/mail', async (_req, res) => {
    noStore(res, csp);
    const emails = await listGuestEmails(deps, 200);
    res
      .type('html')
      .send(
        page(
          'Guest e-mails (development)',
          `<p>What the service would have sent: <code>SMTP_URL</code> is unset, so messages are kept here (newest first, at most 200). Every workspace's, guest links included: never expose this server.</p>` +
            (emails.length === 0
              ? '<p>None yet. Confirm a booking, pay one on the sandbox or cancel one.</p>'
              : `<table><tr><th>Subject</th><th>To</th><th>From</th><th>Status</th><th>Written</th></tr>${emails.map(messageRow).join('')}</table>`),
        ),
      );
  });

  async function find(req: Request, res: Response): Promise<GuestEmail | null> {
    const id = segment(req, 'emailId');
    const found = id ? await getGuestEmail(deps, id) : null;
    if (found?.ok) return found.value;
    res.status(404).type('html').send(page('No such message', '<p><a href="/dev/mail">All messages</a></p>'));
    return null;
  }

  router.get('/dev/mail/:emailId', async (req, res) => {
    noStore(res, csp);
    const email = await find(req, res);
    if (email) res.type('html').send(messagePage(email, deps.config.mailFrom));
  });

  router.get('/dev/mail/:emailId/html', async (req, res) => {
    noStore(res, MESSAGE_POLICY);
    const email = await find(req, res);
    if (email) res.type('html').send(email.html);
  });
  return router;
}

/**
 * A reminder's `List-Unsubscribe` (RFC 2369, one-click per RFC 8058): `GET` shows a button,
 * `POST` (the button, or a mail client's one-click `List-Unsubscribe=One-Click`) stops the
 * booking's reminders. The guest's token is the access, as on the booking page.
 */
export function unsubscribeRouter(deps: HttpDeps): Router {
  const router = express.Router();
  const csp = pagePolicy({
    https: deps.config.publicBaseUrl.startsWith('https:'),
    inlineStyles: [STYLE],
    formToSelf: true,
  });
  const notFound = (res: Response) =>
    res
      .status(404)
      .type('html')
      .send(
        page(
          'No such booking',
          '<p>This link does not open a booking. It may have been replaced by a newer one.</p>',
        ),
      );

  router.get('/mail/unsubscribe/:publicToken', async (req, res) => {
    noStore(res, csp);
    const token = segment(req, 'publicToken');
    const booking = token ? await getPublicBooking(deps, token) : null;
    if (!booking?.ok) return notFound(res);
    res
      .type('html')
      .send(
        page(
          'Stop reminders',
          '<p>Stop the reminder e-mails for this booking? Confirmations and changes of the booking still reach you.</p><form method="post"><button name="List-Unsubscribe" value="One-Click">Stop reminders</button></form>',
        ),
      );
  });

  router.post(
    '/mail/unsubscribe/:publicToken',
    express.urlencoded({ extended: false, limit: '1kb', parameterLimit: 5 }),
    async (req, res) => {
      noStore(res, csp);
      const token = segment(req, 'publicToken');
      const done = token ? await unsubscribeFromReminders(deps, token) : null;
      if (!done?.ok) return notFound(res);
      res
        .type('html')
        .send(page('Reminders stopped', '<p>You will get no more reminders for this booking.</p>'));
    },
  );
  return router;
}
