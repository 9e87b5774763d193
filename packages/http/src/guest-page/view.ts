import type { PublicBooking } from '@travelops/domain/guests';
import { escapeHtml as e } from '@travelops/html';
import { pagePolicy } from '../csp.js';
import { type Formatters, formatters } from './format.js';
import { guestStrings as s } from './strings.js';

const STYLE = `body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f4f5f7;color:#1b1f24}
main{max-width:42rem;margin:0 auto;padding:1.5rem 1rem 3rem}
h1{font-size:1.6rem;line-height:1.25;margin:.25rem 0 .5rem}
h2{font-size:1.2rem;margin:0 0 .75rem}
section{background:#fff;border:1px solid #d5dae0;border-radius:8px;padding:1rem 1.25rem;margin:1rem 0}
dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.35rem 1rem;margin:0}
dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}
table{border-collapse:collapse;width:100%}
caption{text-align:left;font-weight:600;padding-bottom:.25rem}
th,td{text-align:left;padding:.4rem .5rem;border-bottom:1px solid #e1e5ea;vertical-align:top}
.badge{display:inline-block;padding:.1rem .65rem;border-radius:999px;font-weight:600}
.ok{background:#dcf2e3;color:#0f4a25}.warn{background:#fdf0cc;color:#5c3900}.off{background:#e8ebee;color:#2b3137}
.notice{border-left:4px solid #1a7f37;background:#eaf7ee;padding:.6rem .8rem}
.error{border-left:4px solid #b42318;background:#fdeceb;padding:.6rem .8rem}
form{margin:.75rem 0 0;padding-top:.75rem;border-top:1px solid #e1e5ea}
label{display:block;margin:.5rem 0 .25rem;font-weight:600}
label.check{display:flex;gap:.5rem;align-items:flex-start;font-weight:400}
input[type=text]{font:inherit;padding:.45rem .6rem;border:1px solid #6b7580;border-radius:6px;width:100%;max-width:26rem;box-sizing:border-box}
input[type=checkbox]{width:1.15rem;height:1.15rem;margin-top:.2rem}
button,a.button{font:inherit;font-weight:600;background:#0a58a8;color:#fff;border:0;border-radius:6px;padding:.55rem 1rem;cursor:pointer;text-decoration:none;display:inline-block;margin-top:.5rem}
button.danger{background:#a61b13}
a{color:#0a58a8}
:focus-visible{outline:3px solid #b45309;outline-offset:2px}`;

/**
 * The guest pages' policy: no script at all (their forms post to the service, which answers
 * with a redirect), the one inline style by its hash, forms only to this origin, never framed.
 */
export const guestPagePolicy = (https: boolean): string =>
  pagePolicy({ https, inlineStyles: [STYLE], formToSelf: true });

function page(title: string, body: string, head = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer">${head}
<title>${e(title)}</title><style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

/** One answer for every token that opens nothing: it says nothing about other bookings. */
export const notFoundPage = (): string =>
  page(s.notFoundTitle, `<h1>${e(s.notFoundTitle)}</h1><p>${e(s.notFoundText)}</p>`);

/**
 * After a form asked for a checkout: the way to the provider's page. A meta refresh, not a
 * redirect: `form-action 'self'` would stop a form's redirect to another origin (a real provider).
 */
export const checkoutRedirectPage = (url: string): string =>
  page(
    s.redirectTitle,
    `<h1>${e(s.redirectTitle)}</h1><p><a class="button" href="${e(url)}">${e(s.redirectLink)}</a></p>`,
    `<meta http-equiv="refresh" content="0;url=${e(url)}">`,
  );

/** What a failed form says: each detail in words (by issue, else field), never the raw message. */
interface PageError {
  details: { field: string; issue: string }[];
}

export interface BookingPageOptions {
  locale: string;
  now: Date;
  /** A notice after a redirect (`?done=`): only known ones are shown. */
  notice?: string | undefined;
  error?: PageError | undefined;
}

const pathOf = (booking: PublicBooking) => `/b/${encodeURIComponent(booking.publicToken ?? '')}`;

function statusBadge(booking: PublicBooking): string {
  const tone = booking.status === 'CONFIRMED' ? 'ok' : booking.status === 'PENDING' ? 'warn' : 'off';
  return `<span class="badge ${tone}">${e(s.status[booking.status])}</span>`;
}

function summary(booking: PublicBooking, f: Formatters): string {
  const tour = booking.tour;
  return `<section aria-labelledby="summary"><h2 id="summary">${e(s.bookingTitle)}</h2><dl>
<dt>${e(s.reference)}</dt><dd>${e(booking.id)}</dd>
<dt>${e(s.when)}</dt><dd>${e(f.dateTime(booking.startsAt))}</dd>
${tour ? `<dt>${e(s.duration)}</dt><dd>${e(s.minutes(tour.durationMinutes))}</dd>` : ''}
<dt>${e(s.meetingPoint)}</dt><dd>${e(tour?.meetingPoint ?? s.meetingPointUnknown)}</dd>
</dl><p><a href="${pathOf(booking)}/booking.ics" download>${e(s.addToCalendar)}</a></p></section>`;
}

function participants(booking: PublicBooking, f: Formatters): string {
  const rows = booking.participants
    .map(
      (p) =>
        `<tr><td>${e(p.name)}</td><td>${e(p.ticketTypeName ?? s.ageBand[p.ageBand ?? 'ADULT'] ?? '')}</td><td>${e(f.money(p.price))}</td><td>${e(p.waiverSigned ? s.signed : s.notSigned)}</td></tr>`,
    )
    .join('');
  return `<section aria-labelledby="participants"><h2 id="participants">${e(s.participants)}</h2>
<table><thead><tr><th scope="col">${e(s.name)}</th><th scope="col">${e(s.ticket)}</th><th scope="col">${e(s.price)}</th><th scope="col">${e(s.waiver)}</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

function waivers(booking: PublicBooking): string {
  if (booking.status === 'CANCELLED' || booking.participants.length === 0) return '';
  const open = booking.participants.filter((p) => !p.waiverSigned);
  const forms = open
    .map((p, i) => {
      const id = `sig-${i}`;
      return `<form method="post" action="${pathOf(booking)}/waiver">
<input type="hidden" name="participantId" value="${e(p.id)}">
<p>${e(s.waiverText(p.name))}</p>
<label for="${id}">${e(s.signedNameLabel(p.name))}</label>
<input id="${id}" name="signedName" type="text" required maxlength="200" autocomplete="name">
<label class="check"><input type="checkbox" name="accepted" value="yes" required><span>${e(s.acceptLabel(p.name))}</span></label>
<button type="submit">${e(s.signButton(p.name))}</button></form>`;
    })
    .join('');
  return `<section id="waivers" aria-labelledby="waivers-title"><h2 id="waivers-title">${e(s.waivers)}</h2>${
    open.length === 0 ? `<p>${e(s.waiversDone)}</p>` : forms
  }</section>`;
}

function payment(booking: PublicBooking, f: Formatters, now: Date): string {
  const outstanding = Math.max(0, booking.totalAmount - booking.amountPaid);
  const held =
    booking.status === 'PENDING' &&
    (booking.expiresAt === null || Date.parse(booking.expiresAt) > now.getTime());
  let action = '';
  if (held) {
    action = `${booking.expiresAt ? `<p>${e(s.heldUntil(f.dateTime(booking.expiresAt)))}</p>` : ''}<form method="post" action="${pathOf(booking)}/pay"><button type="submit">${e(s.payNow)}</button></form>`;
  } else if (booking.status === 'CONFIRMED' && outstanding > 0) {
    action = `<form method="post" action="${pathOf(booking)}/pay"><button type="submit">${e(s.payBalance(f.money(outstanding)))}</button></form>`;
  }
  return `<section aria-labelledby="payment"><h2 id="payment">${e(s.payment)}</h2><dl>
<dt>${e(s.total)}</dt><dd>${e(f.money(booking.totalAmount))} (${e(s.paymentStatus[booking.paymentStatus])})</dd>
<dt>${e(s.paid)}</dt><dd>${e(f.money(booking.amountPaid))}</dd>
${booking.amountRefunded > 0 ? `<dt>${e(s.refunded)}</dt><dd>${e(f.money(booking.amountRefunded))}</dd>` : ''}
${booking.status === 'PENDING' || booking.status === 'CONFIRMED' ? `<dt>${e(s.outstanding)}</dt><dd>${e(f.money(outstanding))}</dd>` : ''}
</dl>${action}</section>`;
}

function policyText(booking: PublicBooking, f: Formatters): string {
  const until = f.dateTime(booking.cancellationCutoffAt);
  const policy = booking.cancellationPolicy;
  if (policy.refund === 'FULL') return s.policyFull(until);
  if (policy.refund === 'PARTIAL') return s.policyPartial(policy.refundPercent ?? 0, until);
  return s.policyNone(until);
}

function cancellation(booking: PublicBooking, f: Formatters): string {
  const head = `<section aria-labelledby="cancellation"><h2 id="cancellation">${e(s.cancellation)}</h2>`;
  if (booking.status === 'CANCELLED') {
    const when = booking.cancelledAt ? `<p>${e(s.cancelledOn(f.dateTime(booking.cancelledAt)))}</p>` : '';
    const reason = booking.cancellationReason
      ? `<p>${e(s.cancelledReason(booking.cancellationReason))}</p>`
      : '';
    return `${head}${when}${reason}</section>`;
  }
  if (booking.status !== 'PENDING' && booking.status !== 'CONFIRMED') return '';
  // Past the cutoff the policy's "until ..." would read as still ahead: say it ended instead.
  if (!booking.cancellable)
    return `${head}<p>${e(s.cutoffPassed(f.dateTime(booking.cancellationCutoffAt)))}</p></section>`;
  const policy = `<p>${e(policyText(booking, f))}</p>`;
  const refund =
    booking.amountPaid > 0 ? s.refundNow(f.money(booking.cancellationRefund)) : s.nothingToRefund;
  return `${head}${policy}<p><strong>${e(refund)}</strong></p>
<form method="post" action="${pathOf(booking)}/cancel">
<label for="reason">${e(s.reasonLabel)}</label>
<input id="reason" name="reason" type="text" maxlength="500">
<label class="check"><input type="checkbox" name="confirm" value="yes" required><span>${e(s.confirmCancelLabel)}</span></label>
<button type="submit" class="danger">${e(s.cancelButton)}</button></form></section>`;
}

/**
 * A string of a table by a key that may come from the request (`?done=`): only the table's own
 * keys, never Object.prototype's (`?done=constructor` would find a function).
 */
const wordFor = (table: Record<string, string>, key: string): string | undefined =>
  Object.hasOwn(table, key) ? table[key] : undefined;

/** The guest's booking page: everything escaped, no script, forms that post to the service. */
export function bookingPage(booking: PublicBooking, options: BookingPageOptions): string {
  const timeZone = booking.tour?.timeZone ?? 'UTC';
  const f = formatters(options.locale, booking.currency, timeZone);
  const notice = options.notice ? wordFor(s.notices, options.notice) : undefined;
  const errors = (options.error?.details ?? []).map(
    (d) => wordFor(s.errors, d.issue) ?? wordFor(s.errors, d.field) ?? s.errors.unknown ?? '',
  );
  const title = booking.tour?.name ?? s.bookingTitle;
  return page(
    `${title}: ${s.bookingTitle}`,
    `<h1>${e(title)}</h1><p>${statusBadge(booking)}</p>
${notice ? `<p class="notice" role="status">${e(notice)}</p>` : ''}
${errors.length ? `<div class="error" role="alert">${[...new Set(errors)].map((m) => `<p>${e(m)}</p>`).join('')}</div>` : ''}
${summary(booking, f)}${participants(booking, f)}${payment(booking, f, options.now)}${waivers(booking)}${cancellation(booking, f)}`,
  );
}
