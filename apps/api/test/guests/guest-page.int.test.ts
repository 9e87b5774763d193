import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingInput, bookingsPath, getBooking, participants, pay } from '../support/booking-fixtures.js';
import { startBrowser } from '../support/browser.js';
import { createDeparture, createTour, type TestWorkspace } from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';

// The guest's booking page /b/{publicToken}: server-rendered, no script, forms that post back.
let t: TestApi;
let ws: TestWorkspace;
let tour: any;
let departure: any;
beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
  tour = await createTour(t, ws, {
    name: 'Lantern Walk <b>by night</b>',
    slug: 'lantern-walk',
    meetingPoint: 'Old Bridge; north side, by the "lion"',
    isPublic: true,
    basePrice: 4_000,
    currency: 'EUR',
    timeZone: 'Europe/Berlin',
    cancellationPolicy: { cutoffHours: 24, refund: 'PARTIAL', refundPercent: 50 },
  });
  departure = await createDeparture(t, ws, tour.id, { capacity: 30 });
});
afterAll(() => t.close());

async function guestBooking(overrides: Record<string, unknown> = {}) {
  const res = await t.request('POST', `/public/${ws.slug}/bookings`, {
    body: bookingInput(departure.id, { participants: participants(2), ...overrides }),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

async function paidBooking(overrides: Record<string, unknown> = {}) {
  const booking = await guestBooking(overrides);
  expect((await pay(t, booking.checkoutUrl)).status).toBe(200);
  return booking;
}

const page = async (path: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${t.baseUrl}${path}`, { headers, redirect: 'manual' });
  return { status: res.status, headers: res.headers, html: await res.text() };
};

/** A browser's form post: urlencoded, redirects not followed. */
const submit = async (path: string, fields: Record<string, string>) => {
  const res = await fetch(`${t.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
  return { status: res.status, headers: res.headers, html: await res.text() };
};

const guestView = async (token: string) => (await t.request('GET', `/public/bookings/${token}`)).body.data;

function expectGuestPageHeaders(headers: Headers) {
  expect(headers.get('cache-control')).toBe('no-store');
  expect(headers.get('referrer-policy')).toBe('no-referrer');
  const csp = headers.get('content-security-policy') ?? '';
  expect(csp).toContain("script-src 'none'");
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("form-action 'self'");
  expect(csp).not.toContain('unsafe-inline');
}

describe('GET /b/{publicToken}', () => {
  it('shows the booking, its participants and meeting point, escaped, under the guest headers', async () => {
    const booking = await guestBooking({
      participants: [{ name: 'Ada <img src=x onerror=alert(1)>' }, { name: 'Bo' }],
    });
    const res = await page(`/b/${booking.publicToken}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expectGuestPageHeaders(res.headers);
    expect(res.html).toContain('Lantern Walk &lt;b&gt;by night&lt;/b&gt;');
    expect(res.html).toContain('Old Bridge; north side, by the &quot;lion&quot;');
    expect(res.html).toContain('Ada &lt;img src=x onerror=alert(1)&gt;');
    expect(res.html).not.toMatch(/<img|<script/i);
    expect(res.html).toContain('Awaiting payment');
    expect(res.html).toContain(booking.id);
    // Money in the tour's currency; the policy in words.
    expect(res.html).toContain('€80.00');
    expect(res.html).toContain('50 % of what you paid is refunded');
  });

  it('dates follow Accept-Language, in the tour time zone', async () => {
    const booking = await guestBooking();
    const german = await page(`/b/${booking.publicToken}`, { 'Accept-Language': 'de-DE,de;q=0.9' });
    const expected = new Intl.DateTimeFormat('de-DE', {
      weekday: 'long',
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZone: 'Europe/Berlin',
      timeZoneName: 'short',
    }).format(new Date(booking.startsAt));
    expect(german.html).toContain(expected);
    expect(german.html).toContain('80,00');
  });

  it('an unknown, rotated or overlong token: one 404 page, the same for all, naming nothing', async () => {
    const booking = await paidBooking();
    const rotated = await t.request('POST', bookingsPath(ws, booking.id, '/public-token'), {
      token: ws.token,
    });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    const answers = await Promise.all([
      page(`/b/${'x'.repeat(32)}`),
      page(`/b/${booking.publicToken}`),
      page(`/b/${'y'.repeat(300)}`),
      page(`/b/${booking.publicToken}/booking.ics`),
    ]);
    for (const res of answers) {
      expect(res.status).toBe(404);
      expectGuestPageHeaders(res.headers);
      expect(res.html).toBe(answers[0]?.html);
      expect(res.html).not.toContain('Lantern');
    }
    expect((await page(`/b/${rotated.body.data.publicToken}`)).status).toBe(200);
  });

  it('shows nothing only operators may see', async () => {
    const booking = await guestBooking({
      participants: [{ name: 'Greta', emergencyContact: 'Mother +4791234567' }],
      notes: 'guest note',
    });
    await t.request('PATCH', bookingsPath(ws, booking.id), {
      token: ws.token,
      body: { notes: 'VIP: friend of the boss', externalReference: 'PARTNER-77' },
    });
    const operatorView = await getBooking(t, ws, booking.id);
    const html = (await page(`/b/${booking.publicToken}`)).html;
    const ics = (await page(`/b/${booking.publicToken}/booking.ics`)).html;
    for (const secret of [
      'VIP: friend of the boss',
      'Mother +4791234567',
      'PARTNER-77',
      operatorView.customerId,
      operatorView.customer?.email ?? operatorView.customerId,
      ws.workspaceId,
    ]) {
      expect(html).not.toContain(secret);
      expect(ics).not.toContain(secret);
    }
  });
});

describe('the cancellation deadline', () => {
  it('once passed, reads as passed (the day it ended), with no "until" and no cancel form; screenshots at 1280 and 390 px', async () => {
    // Starts in 3 hours: the 24-hour cancellation deadline was 21 hours ago.
    const soon = await createDeparture(t, ws, tour.id, {
      capacity: 10,
      startsAt: new Date(Math.ceil((Date.now() + 3 * 3_600_000) / 60_000) * 60_000).toISOString(),
    });
    const res = await t.request('POST', `/public/${ws.slug}/bookings`, {
      body: bookingInput(soon.id, { participants: participants(1) }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const booking = res.body.data;
    expect((await pay(t, booking.checkoutUrl)).status).toBe(200);
    const { html } = await page(`/b/${booking.publicToken}`, { 'Accept-Language': 'en-GB' });
    const section = html.slice(html.indexOf('id="cancellation"'));
    expect(section).toMatch(/The time to cancel online has passed: it ended on \w+day, /);
    expect(section).not.toContain('until');
    expect(section).not.toContain('/cancel"');

    const artifacts = join(import.meta.dirname, '..', '..', 'test-artifacts', 'guest-page');
    await mkdir(artifacts, { recursive: true });
    const browser = await startBrowser();
    try {
      for (const width of [1280, 390]) {
        const tab = await browser.context.newPage();
        await tab.setViewportSize({ width, height: 900 });
        await tab.goto(`${t.baseUrl}/b/${booking.publicToken}`);
        await tab.getByText('The time to cancel online has passed').waitFor();
        await tab.screenshot({ path: join(artifacts, `cancellation-passed-${width}.png`), fullPage: true });
        await tab.close();
      }
    } finally {
      await browser.close();
    }
  }, 60_000);
});

describe('forms', () => {
  it('signing a waiver: 303 back to the page, which says so; the participant is signed', async () => {
    const booking = await paidBooking();
    const [first] = (await guestView(booking.publicToken)).participants;
    const res = await submit(`/b/${booking.publicToken}/waiver`, {
      participantId: first.id,
      signedName: 'Guest One',
      accepted: 'yes',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/b/${booking.publicToken}?done=waiver`);
    expect((await guestView(booking.publicToken)).participants.map((p: any) => p.waiverSigned)).toEqual([
      true,
      false,
    ]);
    const after = await page(`/b/${booking.publicToken}?done=waiver`);
    expect(after.html).toContain('the waiver is signed');
    expect(after.html.match(/\/waiver"/g)).toHaveLength(1);
  });

  it('a waiver without a name or without the tick is the page again, saying what is missing', async () => {
    const booking = await paidBooking();
    const [first] = (await guestView(booking.publicToken)).participants;
    const unnamed = await submit(`/b/${booking.publicToken}/waiver`, {
      participantId: first.id,
      signedName: '',
      accepted: 'yes',
    });
    expect(unnamed.status).toBe(400);
    expectGuestPageHeaders(unnamed.headers);
    expect(unnamed.html).toContain('role="alert"');
    expect(unnamed.html).toContain('Type the full name of the person signing.');
    const unticked = await submit(`/b/${booking.publicToken}/waiver`, {
      participantId: first.id,
      signedName: 'Guest One',
    });
    expect(unticked.status).toBe(400);
    expect(unticked.html).toContain('Tick the box to accept the waiver.');
    const stranger = await submit(`/b/${booking.publicToken}/waiver`, {
      participantId: 'ptc_0000000000000000000000',
      signedName: 'Guest One',
      accepted: 'yes',
    });
    expect(stranger.status).toBe(422);
    expect(stranger.html).toContain('That participant is not on this booking.');
    expect((await guestView(booking.publicToken)).participants.every((p: any) => !p.waiverSigned)).toBe(true);
  });

  it('a form too large is 413 with the error envelope, never a 500', async () => {
    const booking = await guestBooking();
    const res = await submit(`/b/${booking.publicToken}/cancel`, {
      confirm: 'yes',
      reason: 'x'.repeat(10_000),
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.html).error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ field: 'body', issue: 'too_large' }],
    });
    expect((await guestView(booking.publicToken)).status).toBe('PENDING');
  });

  it('pay: a held booking gets a page that takes the guest to a fresh checkout, which pays', async () => {
    const booking = await guestBooking();
    const res = await submit(`/b/${booking.publicToken}/pay`, {});
    expect(res.status).toBe(200);
    expectGuestPageHeaders(res.headers);
    const url = /content="0;url=([^"]+)"/.exec(res.html)?.[1]?.replace(/&amp;/g, '&');
    expect(url).toMatch(/\/sandbox\/pay\/[0-9A-Za-z]+$/);
    expect(res.html).toContain(`href="${url}"`);
    expect((await pay(t, url as string)).status).toBe(200);
    expect(await guestView(booking.publicToken)).toMatchObject({
      status: 'CONFIRMED',
      paymentStatus: 'PAID',
    });
    // Paid: nothing left to pay, and the form says so in words.
    const again = await submit(`/b/${booking.publicToken}/pay`, {});
    expect(again.status).toBe(422);
    expect(again.html).toContain('Nothing is left to pay.');
  });

  it('pay the balance: after a deposit the button pays what is left', async () => {
    const booking = await paidBooking({ paymentMode: 'DEPOSIT' });
    const before = await page(`/b/${booking.publicToken}`);
    expect(before.html).toContain('Pay the balance of €64.00');
    const res = await submit(`/b/${booking.publicToken}/pay`, {});
    const url = /content="0;url=([^"]+)"/.exec(res.html)?.[1] as string;
    expect((await fetch(t.local(url)).then((r) => r.text())).includes('64.00 EUR')).toBe(true);
    expect((await pay(t, url)).status).toBe(200);
    expect(await guestView(booking.publicToken)).toMatchObject({ paymentStatus: 'PAID', amountPaid: 8_000 });
  });

  it('cancel: without the tick nothing happens; with it, 303 and the policy refund is made', async () => {
    const booking = await paidBooking();
    const page1 = await page(`/b/${booking.publicToken}`);
    expect(page1.html).toContain('If you cancel now, you get €40.00 back.');
    const unticked = await submit(`/b/${booking.publicToken}/cancel`, { reason: 'Flight moved' });
    expect(unticked.status).toBe(400);
    expect(unticked.html).toContain('Tick &quot;Yes, cancel this booking&quot; to cancel.');
    expect((await guestView(booking.publicToken)).status).toBe('CONFIRMED');

    const res = await submit(`/b/${booking.publicToken}/cancel`, { reason: 'Flight moved', confirm: 'yes' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/b/${booking.publicToken}?done=cancelled`);
    expect(await guestView(booking.publicToken)).toMatchObject({
      status: 'CANCELLED',
      amountRefunded: 4_000,
      paymentStatus: 'PARTIALLY_REFUNDED',
      cancellationReason: 'Flight moved',
    });
    const after = await page(`/b/${booking.publicToken}?done=cancelled`);
    expect(after.html).toContain('Your booking is cancelled.');
    expect(after.html).toContain('Reason: Flight moved');
    expect(after.html).not.toContain('/cancel"');
    expect(after.html).not.toContain('/waiver"');

    const twice = await submit(`/b/${booking.publicToken}/cancel`, { confirm: 'yes' });
    expect(twice.status).toBe(422);
    expect(twice.html).toContain('This booking cannot do that any more');
  });
});

describe('GET /b/{publicToken}/booking.ics', () => {
  it('an RFC 5545 event in UTC, as an attachment, under the guest headers', async () => {
    const booking = await paidBooking();
    const res = await page(`/b/${booking.publicToken}/booking.ics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="booking-${booking.id}.ics"`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const lines = res.html.split('\r\n');
    const start = booking.startsAt.replace(/[-:]/g, '').replace(/\.\d{3}/, '');
    expect(lines).toContain(`DTSTART:${start}`);
    expect(lines).toContain('SUMMARY:Lantern Walk <b>by night</b>');
    expect(lines).toContain('LOCATION:Old Bridge\\; north side\\, by the "lion"');
    expect(lines).toContain('STATUS:CONFIRMED');
    expect(res.html).not.toContain(booking.publicToken);
  });
});

it('after paying in the sandbox, the guest finds the way back to the booking page', async () => {
  const booking = await guestBooking();
  const res = await fetch(t.local(booking.checkoutUrl), {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'outcome=succeeded',
  });
  expect(await res.text()).toContain(`<a href="/b/${booking.publicToken}">View your booking</a>`);
});
