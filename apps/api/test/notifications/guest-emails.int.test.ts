import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { workspaceUpdate } from '../../src/cli/commands.js';
import {
  book,
  bookingsPath,
  getBooking,
  HOUR,
  MINUTE,
  participants,
  pay,
  setStatus,
} from '../support/booking-fixtures.js';
import {
  createDeparture,
  createTour,
  customerInput,
  fromNow,
  type TestWorkspace,
} from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';
import {
  calendarOf,
  type MailWorker,
  mailWorker,
  PUBLIC_BASE_URL,
  type ReceivedEmail,
  startSmtp,
  type TestSmtp,
} from '../support/mail-fixtures.js';
import { testClock } from '../support/webhook-fixtures.js';

let t: TestApi;
let smtp: TestSmtp;
let ws: TestWorkspace;
let tour: any;
let departure: any;
let other: any;
const workers: MailWorker[] = [];

const HOSTILE = `<script>alert("x")</script><img src=x onerror=alert(1)>`;

beforeAll(async () => {
  t = await startTestApi({ PUBLIC_BASE_URL });
  smtp = await startSmtp();
  ws = await t.createWorkspace('ADMIN');
  const named = await workspaceUpdate(t.commandDeps, {
    workspace: ws.workspaceId,
    name: 'Fjord Tours',
    'reply-to': 'desk@fjord-tours.example',
  });
  if (!named.ok) throw new Error(named.error.message);
  tour = await createTour(t, ws, {
    name: 'Fjord Kayak',
    isPublic: true,
    timeZone: 'Europe/Oslo',
    meetingPoint: 'Pier 3, Bergen',
    basePrice: 4_000,
    currency: 'NOK',
    capacity: 200,
  });
  departure = await createDeparture(t, ws, tour.id, { capacity: 200, startsAt: fromNow(30) });
  other = await createDeparture(t, ws, tour.id, { capacity: 200, startsAt: fromNow(31) });
});
afterEach(() => {
  for (const worker of workers.splice(0)) worker.close();
});
afterAll(async () => {
  await smtp?.stop();
  await t?.close();
});

/** A worker's e-mail jobs with a clock of their own, sending to the test SMTP server. */
function worker(options: { smtpUrl?: string | null; perWorkspacePerMinute?: number } = {}) {
  const clock = testClock();
  const jobs = mailWorker(t, clock, {
    smtpUrl: options.smtpUrl === undefined ? smtp.url : options.smtpUrl,
    ...options,
  });
  workers.push(jobs);
  return { clock, ...jobs };
}

const to = (email: string) => smtp.received.filter((message) => message.envelope.to.includes(email));
// Intl puts a no-break space between a currency code and the amount: read it as a space.
const plain = (text: string | undefined) => (text ?? '').replace(/\u00a0/g, ' ');
const subjects = (email: string) => to(email).map((message) => plain(message.mail.subject));
const textOf = (message: ReceivedEmail | undefined) => plain(message?.mail.text);
const guestPage = (publicToken: string) => `${PUBLIC_BASE_URL}/b/${publicToken}`;
const local = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'Europe/Oslo',
    timeZoneName: 'short',
  }).format(new Date(iso));

/** Runs the jobs until nothing is left to send now (requests written, due messages sent). */
async function drain(jobs: { deliver(): Promise<void>; clock?: { catchUp(): Date } }) {
  // Messages are due at the database's now(): a frozen clock created a while ago (a slow,
  // loaded run) would find nothing due. It only ever moves forward.
  jobs.clock?.catchUp();
  await jobs.deliver();
  await jobs.deliver();
}

/** A CHECKOUT booking paid on the sandbox: CONFIRMED and PAID. */
async function paidBooking(customer = customerInput(), extra: Record<string, unknown> = {}) {
  const booking = await book(t, ws, departure.id, {
    customer,
    participants: participants(2, 'Paddler'),
    ...extra,
  });
  const paid = await pay(t, booking.checkoutUrl);
  if (paid.status !== 200) throw new Error(`pay: ${paid.status} ${JSON.stringify(paid.body)}`);
  return {
    booking: await getBooking(t, ws, booking.id),
    checkoutUrl: booking.checkoutUrl as string,
    customer,
  };
}

/** What no message may hold: a payment page token, a credential, another link than the guest's. */
function expectNoSecrets(email: ReceivedEmail, secrets: string[]) {
  for (const secret of secrets) expect(email.raw).not.toContain(secret);
  expect(email.raw).not.toMatch(/\/sandbox\/pay\/|\/pay\/[A-Za-z0-9]/);
  expect(email.raw).not.toContain(ws.token);
}

describe('the confirmation and the receipt', () => {
  it('a booking paid at the checkout: each arrives once, to the booking e-mail, from the workspace, with the guest link and an .ics', async () => {
    const jobs = worker();
    const { booking, checkoutUrl, customer } = await paidBooking();
    await drain(jobs);
    await drain(jobs);

    expect(subjects(customer.email).sort()).toEqual([
      expect.stringMatching(/^Booking confirmed: Fjord Kayak, /),
      'Payment received: NOK 80.00 for Fjord Kayak',
    ]);
    for (const email of to(customer.email)) {
      // The envelope and the headers name the booking's address and nobody else.
      expect(email.envelope.to).toEqual([customer.email]);
      expect(email.mail.to).toMatchObject({ value: [{ address: customer.email }] });
      expect(email.mail.cc).toBeUndefined();
      expect(email.mail.bcc).toBeUndefined();
      expect(email.mail.from?.value).toEqual([
        { name: 'Fjord Tours', address: 'bookings@travelops.example' },
      ]);
      expect(email.mail.replyTo?.value).toEqual([{ name: '', address: 'desk@fjord-tours.example' }]);
      expect(email.mail.messageId).toMatch(/^<eml_[0-9A-Za-z]{22}@travelops\.example>$/);
      // Both parts, the same facts.
      for (const part of [email.mail.text ?? '', email.mail.html || '']) {
        expect(part).toContain(guestPage(booking.publicToken));
        expect(part).toContain(booking.id);
        expect(part).toContain(local(booking.startsAt));
      }
      expectNoSecrets(email, [new URL(checkoutUrl).pathname.split('/').pop() as string]);
    }

    const [confirmation] = to(customer.email).filter((m) => m.mail.subject?.startsWith('Booking confirmed'));
    if (!confirmation) throw new Error('no confirmation');
    const text = textOf(confirmation);
    expect(text).toContain('Pier 3, Bergen');
    expect(text).toContain('Paddler 1');
    expect(text).toContain('Paddler 2');
    expect(text).toContain('NOK 80.00');
    expect(text).toContain(`${guestPage(booking.publicToken)}/booking.ics`);
    const ics = calendarOf(confirmation) ?? '';
    const unfolded = ics.replace(/\r\n /g, '');
    expect(unfolded).toContain(`UID:${booking.id}@book.travelops.example`);
    expect(unfolded).toContain(`DTSTART:${booking.startsAt.replace(/[-:]/g, '').replace(/\.\d{3}/, '')}`);
    expect(unfolded).toContain('LOCATION:Pier 3\\, Bergen');
    expect(unfolded).toContain('STATUS:CONFIRMED');
    // The calendar file holds no link: calendars are shared, the guest's token is a key.
    expect(ics).not.toContain(booking.publicToken);
    const receipt = to(customer.email).find((m) => m.mail.subject?.startsWith('Payment received'));
    expect(calendarOf(receipt as ReceivedEmail)).toBeUndefined();
  });

  it('a guest who books a free tour gets its confirmation at once; an operator who books one sends nothing', async () => {
    const jobs = worker();
    const free = await createTour(t, ws, { name: 'Free Walk', isPublic: true, basePrice: 0, capacity: 20 });
    const freeDeparture = await createDeparture(t, ws, free.id, { capacity: 20 });
    const guest = customerInput();
    const res = await t.request('POST', `/public/${ws.slug}/bookings`, {
      body: { availabilityId: freeDeparture.id, customer: guest, participants: participants(1) },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.status).toBe('CONFIRMED');
    const walkIn = customerInput();
    expect((await book(t, ws, freeDeparture.id, { customer: walkIn })).status).toBe('CONFIRMED');
    await drain(jobs);
    expect(subjects(guest.email)).toEqual([expect.stringMatching(/^Booking confirmed: Free Walk, /)]);
    expect(to(walkIn.email)).toEqual([]);
  });

  it('names come escaped in the HTML and as written in the text; the subject stays one line', async () => {
    const jobs = worker();
    const hostileTour = await createTour(t, ws, {
      name: `Kayak ${HOSTILE}\r\nBcc: eve@evil.example`,
      capacity: 10,
    });
    const hostileDeparture = await createDeparture(t, ws, hostileTour.id, { capacity: 10 });
    const customer = customerInput({ name: HOSTILE });
    const booking = await book(t, ws, hostileDeparture.id, {
      customer,
      paymentMode: 'MANUAL',
      participants: [{ name: HOSTILE }],
    });
    expect((await setStatus(t, ws, booking.id, 'CONFIRMED', { notifyCustomer: true })).status).toBe(200);
    await drain(jobs);
    const [email] = to(customer.email);
    if (!email) throw new Error('no e-mail');
    expect(email.envelope.to).toEqual([customer.email]);
    expect(email.mail.html).not.toContain('<script>');
    expect(email.mail.html).not.toMatch(/<img[^>]*onerror/);
    expect(email.mail.html).toContain('&lt;script&gt;');
    expect(email.mail.text).toContain(HOSTILE);
    expect(email.mail.subject).not.toMatch(/[\r\n]/);
    expect(email.mail.bcc).toBeUndefined();
    expect(email.mail.headers.get('bcc')).toBeUndefined();
  });
});

describe('status changes: notifyCustomer', () => {
  it('true sends its e-mail (confirmed, cancelled with the refund); false, the default, sends none', async () => {
    const jobs = worker();
    const quiet = customerInput();
    const silent = await book(t, ws, departure.id, { customer: quiet, paymentMode: 'MANUAL' });
    expect((await setStatus(t, ws, silent.id, 'CONFIRMED')).status).toBe(200);
    expect((await setStatus(t, ws, silent.id, 'CANCELLED', { notifyCustomer: false })).status).toBe(200);

    const told = customerInput();
    const { booking } = await paidBooking(told);
    await drain(jobs);
    const before = subjects(told.email).length;
    const cancelled = await setStatus(t, ws, booking.id, 'CANCELLED', {
      notifyCustomer: true,
      reason: 'Storm warning',
      refundAmount: 8_000,
    });
    expect(cancelled.status).toBe(200);
    await drain(jobs);

    expect(to(quiet.email)).toEqual([]);
    const after = to(told.email).slice(before);
    expect(after.map((m) => m.mail.subject)).toEqual([
      expect.stringMatching(/^Booking cancelled: Fjord Kayak, /),
    ]);
    expect(textOf(after[0])).toContain('We are refunding NOK 80.00');
    expect(textOf(after[0])).toContain('Storm warning');
  });

  it('a guest who cancels gets the cancellation with the refund the policy gave', async () => {
    const jobs = worker();
    const guest = customerInput();
    const { booking } = await paidBooking(guest);
    await drain(jobs);
    const res = await t.request('POST', `/public/bookings/${booking.publicToken}/cancel`, {
      body: { reason: 'Flight cancelled' },
    });
    expect(res.status).toBe(200);
    await drain(jobs);
    const cancellation = to(guest.email).find((m) => m.mail.subject?.startsWith('Booking cancelled'));
    expect(textOf(cancellation)).toContain('We are refunding NOK 80.00');
    expect(textOf(cancellation)).toContain('Flight cancelled');
  });
});

describe('changes', () => {
  it('a move and new participants are e-mailed (with the updated .ics); notes or notifyCustomer: false are not', async () => {
    const jobs = worker();
    const guest = customerInput();
    const { booking } = await paidBooking(guest);
    await drain(jobs);
    const before = to(guest.email).length;
    const patch = (body: object) =>
      t.request('PATCH', bookingsPath(ws, booking.id), { token: ws.token, body });
    expect((await patch({ notes: 'VIP' })).status).toBe(200);
    expect(
      (await patch({ participants: participants(2, 'Quiet'), notifyCustomer: false, totalAmount: 8_000 }))
        .status,
    ).toBe(200);
    expect((await patch({ availabilityId: other.id })).status).toBe(200);
    await drain(jobs);

    const changes = to(guest.email).slice(before);
    expect(changes.map((m) => m.mail.subject)).toEqual([
      expect.stringMatching(/^Booking changed: Fjord Kayak, /),
    ]);
    const [change] = changes;
    expect(change?.mail.text).toContain('It has moved to another departure.');
    expect(change?.mail.text).toContain(local(other.startsAt));
    expect(change?.mail.text).toContain(local(departure.startsAt));
    const ics = (calendarOf(change as ReceivedEmail) ?? '').replace(/\r\n /g, '');
    expect(ics).toContain(`DTSTART:${other.startsAt.replace(/[-:]/g, '').replace(/\.\d{3}/, '')}`);
    expect(ics).toMatch(/SEQUENCE:[1-9]\d*/);
  });
});

describe('hold expiring soon', () => {
  it('an unpaid public hold is warned once, a few minutes before it lapses, with the link to pay on its page', async () => {
    const jobs = worker();
    const guest = customerInput();
    const res = await t.request('POST', `/public/${ws.slug}/bookings`, {
      body: { availabilityId: departure.id, customer: guest, participants: participants(1) },
    });
    expect(res.status).toBe(201);
    const hold = res.body.data;
    // Ten minutes of a fifteen-minute hold have passed: five are left.
    jobs.clock.advance(Date.parse(hold.expiresAt) - 5 * MINUTE - jobs.clock.now().getTime());
    await jobs.schedule();
    await jobs.schedule();
    await drain(jobs);
    const warnings = to(guest.email);
    expect(warnings.map((m) => m.mail.subject)).toEqual([
      expect.stringMatching(/^Your seats on Fjord Kayak are held until /),
    ]);
    expect(warnings[0]?.mail.html).toContain(`href="${guestPage(hold.publicToken)}"`);
    expectNoSecrets(warnings[0] as ReceivedEmail, [
      new URL(hold.checkoutUrl).pathname.split('/').pop() as string,
    ]);
  });
});

describe('reminders', () => {
  it('two workers send the reminder 24 hours before the departure once, with List-Unsubscribe; its link stops the next', async () => {
    const soon = await createDeparture(t, ws, tour.id, { capacity: 10, startsAt: fromNow(3) });
    const guest = customerInput();
    const booking = await book(t, ws, soon.id, { customer: guest, paymentMode: 'MANUAL' });
    expect((await setStatus(t, ws, booking.id, 'CONFIRMED')).status).toBe(200);
    const [a, b] = [worker(), worker()];
    const at = Date.parse(soon.startsAt) - 23 * HOUR;
    for (const jobs of [a, b]) jobs.clock.advance(at - jobs.clock.now().getTime());
    await Promise.all([a.schedule(), b.schedule(), a.schedule(), b.schedule()]);
    await Promise.all([a.deliver(), b.deliver(), a.deliver(), b.deliver()]);
    await Promise.all([a.schedule(), b.schedule()]);
    await Promise.all([a.deliver(), b.deliver()]);

    const reminders = to(guest.email);
    expect(reminders.map((m) => m.mail.subject)).toEqual([expect.stringMatching(/^Reminder: Fjord Kayak, /)]);
    const reminder = reminders[0] as ReceivedEmail;
    const unsubscribe = `${PUBLIC_BASE_URL}/mail/unsubscribe/${booking.publicToken}`;
    const headers = reminder.raw.split('\r\n\r\n')[0]?.replace(/\r\n[ \t]+/g, ' ') ?? '';
    expect(headers).toContain(`List-Unsubscribe: <${unsubscribe}>`);
    expect(headers).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(reminder.mail.text).toContain(local(soon.startsAt));

    // One-click unsubscribe, then the booking moves to another day: no reminder for it.
    const page = await t.request('GET', `/mail/unsubscribe/${booking.publicToken}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const done = await fetch(`${t.baseUrl}/mail/unsubscribe/${booking.publicToken}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(done.status).toBe(200);
    const later = await createDeparture(t, ws, tour.id, { capacity: 10, startsAt: fromNow(4) });
    expect(
      (
        await t.request('PATCH', bookingsPath(ws, booking.id), {
          token: ws.token,
          body: { availabilityId: later.id, notifyCustomer: false },
        })
      ).status,
    ).toBe(200);
    a.clock.advance(Date.parse(later.startsAt) - 23 * HOUR - a.clock.now().getTime());
    await a.schedule();
    await drain(a);
    expect(to(guest.email)).toHaveLength(1);
    expect((await t.request('POST', '/mail/unsubscribe/not-a-token')).status).toBe(404);
  });

  it('a tour with reminderHoursBefore null sends none', async () => {
    const quietTour = await createTour(t, ws, {
      name: 'No reminders',
      reminderHoursBefore: null,
      capacity: 10,
    });
    expect(quietTour.reminderHoursBefore).toBeNull();
    const soon = await createDeparture(t, ws, quietTour.id, { capacity: 10, startsAt: fromNow(3) });
    const guest = customerInput();
    const booking = await book(t, ws, soon.id, { customer: guest, paymentMode: 'MANUAL' });
    expect((await setStatus(t, ws, booking.id, 'CONFIRMED')).status).toBe(200);
    const jobs = worker();
    jobs.clock.advance(Date.parse(soon.startsAt) - HOUR - jobs.clock.now().getTime());
    await jobs.schedule();
    await drain(jobs);
    expect(to(guest.email)).toEqual([]);
  });
});

describe('delivery', () => {
  it('an SMTP server that is down, then up, gets the message late and once', async () => {
    const jobs = worker();
    const guest = customerInput();
    const booking = await book(t, ws, departure.id, { customer: guest, paymentMode: 'MANUAL' });
    await smtp.stop();
    try {
      expect((await setStatus(t, ws, booking.id, 'CONFIRMED', { notifyCustomer: true })).status).toBe(200);
      await drain(jobs);
      const [row] = await t.api.database.knex('guest_emails').where({ booking_id: booking.id });
      expect(row).toMatchObject({ status: 'PENDING', attempts: 1 });
      expect(row.last_error).toMatch(/ESOCKET|ECONNECTION|ECONNREFUSED/);
      expect(row.next_attempt_at.getTime()).toBeGreaterThan(jobs.clock.now().getTime());
    } finally {
      await smtp.start();
    }
    await drain(jobs);
    expect(to(guest.email)).toEqual([]);
    jobs.clock.advance(2 * MINUTE);
    await drain(jobs);
    jobs.clock.advance(10 * MINUTE);
    await drain(jobs);
    expect(subjects(guest.email)).toEqual([expect.stringMatching(/^Booking confirmed/)]);
    const [row] = await t.api.database.knex('guest_emails').where({ booking_id: booking.id });
    expect(row).toMatchObject({ status: 'SENT', attempts: 2, last_error: null });
  });

  it('a recipient the server refuses for good (550) is FAILED at once, not retried', async () => {
    const jobs = worker();
    const guest = customerInput();
    smtp.refuse.add(guest.email);
    const booking = await book(t, ws, departure.id, { customer: guest, paymentMode: 'MANUAL' });
    expect((await setStatus(t, ws, booking.id, 'CONFIRMED', { notifyCustomer: true })).status).toBe(200);
    await drain(jobs);
    const [row] = await t.api.database.knex('guest_emails').where({ booking_id: booking.id });
    expect(row).toMatchObject({ status: 'FAILED', attempts: 1 });
    expect(row.last_error).toContain('550');
  });

  it('at most MAIL_RATE_PER_MINUTE messages per workspace start in a minute; the rest go in the next', async () => {
    const busy = await t.createWorkspace('ADMIN');
    const busyTour = await createTour(t, busy, { capacity: 20 });
    const busyDeparture = await createDeparture(t, busy, busyTour.id, { capacity: 20 });
    const guests = [customerInput(), customerInput(), customerInput()];
    for (const guest of guests) {
      const booking = await book(t, busy, busyDeparture.id, { customer: guest, paymentMode: 'MANUAL' });
      expect((await setStatus(t, busy, booking.id, 'CONFIRMED', { notifyCustomer: true })).status).toBe(200);
    }
    const jobs = worker({ perWorkspacePerMinute: 2 });
    await drain(jobs);
    expect(guests.filter((guest) => to(guest.email).length === 1)).toHaveLength(2);
    jobs.clock.advance(61_000);
    await drain(jobs);
    expect(guests.filter((guest) => to(guest.email).length === 1)).toHaveLength(3);
  });
});

describe('/dev/mail (no SMTP_URL)', () => {
  it('keeps the messages and shows them, escaped, under a strict policy', async () => {
    const jobs = worker({ smtpUrl: null });
    const guest = customerInput({ name: HOSTILE });
    const booking = await book(t, ws, departure.id, { customer: guest, paymentMode: 'MANUAL' });
    expect((await setStatus(t, ws, booking.id, 'CONFIRMED', { notifyCustomer: true })).status).toBe(200);
    await drain(jobs);
    expect(to(guest.email)).toEqual([]);
    const [row] = await t.api.database.knex('guest_emails').where({ booking_id: booking.id });
    expect(row).toMatchObject({ status: 'KEPT', attempts: 0 });

    const list = await fetch(`${t.baseUrl}/dev/mail`);
    expect(list.status).toBe(200);
    const csp = list.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'none'");
    expect(list.headers.get('cache-control')).toBe('no-store');
    expect(await list.text()).toContain(guest.email);

    const message = await fetch(`${t.baseUrl}/dev/mail/${row.id}`);
    expect(message.status).toBe(200);
    const html = await message.text();
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toContain('<script>');
    expect(html).toContain('BEGIN:VCALENDAR');
    // The sender is the address the e-mails come from, not a placeholder; the workspace has a
    // reply-to, so the message invites a reply (without one it does not: the composer's tests).
    expect(html).not.toContain('MAIL_FROM');
    expect(html).toMatch(/<th>From<\/th><td>[^<]+ &lt;[^&<]+@[^&<]+&gt;<\/td>/);
    expect(html).toContain('<th>Reply-To</th>');
    expect(html).toContain('Reply to this e-mail to reach them.');
    const part = await fetch(`${t.baseUrl}/dev/mail/${row.id}/html`);
    expect(part.headers.get('content-security-policy')).toContain('sandbox');
    expect(part.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect((await fetch(`${t.baseUrl}/dev/mail/eml_nothing`)).status).toBe(404);
  });

  it('is not served in production', async () => {
    const production = await startTestApi({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox' });
    try {
      expect((await production.request('GET', '/dev/mail')).status).toBe(404);
    } finally {
      await production.close();
    }
  });
});
