import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowser, type TestBrowser } from '../support/browser.js';
import { createDeparture, createTour, type TestWorkspace } from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';

// The operator console (apps/console, built) in headless Chromium against the real API on
// PostgreSQL: one operator's day, in order. Screenshots of each page land in test/artifacts/.
const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'artifacts', 'console');

let t: TestApi;
let ws: TestWorkspace;
let otherWs: TestWorkspace;
let nightWalkId: string;
let departureId: string;
let admin: { email: string; password: string; memberId: string };
let reader: { email: string; password: string; memberId: string };
let browser: TestBrowser;
let page: Page;
const problems: string[] = [];
const documentRequests: string[] = [];

beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
  admin = await t.createMember(ws.workspaceId, 'ADMIN');
  reader = await t.createMember(ws.workspaceId, 'READ_ONLY');
  // The same person in a second workspace, with another role: the switcher's case.
  otherWs = await t.createWorkspace('ADMIN');
  await t.createMember(otherWs.workspaceId, 'OPERATIONS', { email: admin.email, password: admin.password });
  await mkdir(ARTIFACTS, { recursive: true });
  browser = await startBrowser();
  page = await browser.context.newPage();
  page.setDefaultTimeout(10_000);
  page.on('pageerror', (error) => problems.push(String(error)));
  page.on('console', (message) => {
    // Refusals the test provokes (wrong password, ended session, a READ_ONLY write, a vehicle too
    // small) are 4xx answers, which the browser logs; the page shows them in words (tested above).
    if (message.type() === 'error' && !/status of 4\d\d/.test(message.text())) problems.push(message.text());
  });
  page.on('request', (request) => {
    if (request.resourceType() === 'document') documentRequests.push(request.url());
  });
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** No serious or critical accessibility violation on what the page shows now. */
async function expectAccessible(name: string) {
  await page.evaluate(axe.source);
  const violations = await page.evaluate(async () => {
    const browserWindow = globalThis as any;
    const result = await browserWindow.axe.run(browserWindow.document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
      .map((v: any) => `${v.id}: ${v.help} (${v.nodes.map((n: any) => n.target.join(' ')).join(', ')})`);
  });
  expect(violations, name).toEqual([]);
}

async function screenshot(name: string) {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** A page of the console, reached the way a person does: its link in the navigation. */
async function openFromNav(label: string, heading: string | RegExp = label) {
  await page
    .getByRole('navigation', { name: 'Console' })
    .getByRole('link', { name: label, exact: true })
    .click();
  await soon(() => page.getByRole('heading', { level: 1 }).first().textContent()).toMatch(heading);
  await settled();
}

/** Waits for what a page shows after the server answers (sign-in hashes a password: not instant). */
const soon = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 10_000 });

/** Until no part of the page says it is loading. */
const settled = () => page.locator('.loading').first().waitFor({ state: 'detached' });

const heading = () => page.getByRole('heading', { level: 1 }).first().textContent();

async function signIn(email: string, password: string) {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** A zone where both now and an hour from now fall on the same local day, so "today" holds. */
function zoneWithRoomToday(): string {
  const sameDay = (zone: string) => {
    const day = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date(ms));
    return day(Date.now() + 5 * 60_000) === day(Date.now() + 2 * 3_600_000);
  };
  return ['UTC', 'Pacific/Kiritimati', 'America/Los_Angeles', 'Asia/Tokyo'].find(sameDay) as string;
}

describe('the operator console', () => {
  it('serves /app/ with a strict policy: scripts and styles of this origin only, no inline script', async () => {
    const res = await fetch(`${t.baseUrl}/app/`);
    expect(res.status).toBe(200);
    const policy = res.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("style-src 'self'");
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).toContain("frame-ancestors 'none'");
    const html = await res.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    // Deep links answer the same page; a missing file is a 404, not the page.
    expect((await fetch(`${t.baseUrl}/app/${ws.workspaceId}/bookings`)).status).toBe(200);
    expect((await fetch(`${t.baseUrl}/app/assets/nothing.js`)).status).toBe(404);
  });

  it('a wrong password is refused in words; the right one opens Today', async () => {
    await page.goto(`${t.baseUrl}/app/`);
    await soon(heading).toBe('Sign in');
    await expectAccessible('sign-in');
    await signIn(admin.email, 'not the password at all');
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toContain('That e-mail and password do not match an account');
    await screenshot('01-sign-in-refused');
    await signIn(admin.email, admin.password);
    await soon(heading).toBe('Today');
    expect(page.url()).toMatch(new RegExp(`/app/(${ws.workspaceId}|${otherWs.workspaceId})/today$`));
    // Two workspaces: the switcher picks the one this test works in.
    await page.getByLabel('Workspace').selectOption(ws.workspaceId);
    await soon(() => page.url()).toBe(`${t.baseUrl}/app/${ws.workspaceId}/today`);
    // The session is an HttpOnly cookie; nothing lands in the page's storage.
    const stored = await page.evaluate(() => {
      const { localStorage, sessionStorage } = globalThis as any;
      return { local: localStorage.length, session: sessionStorage.length };
    });
    expect(stored).toEqual({ local: 0, session: 0 });
    expect(await page.evaluate(() => (globalThis as any).document.cookie)).toBe('');
  });

  it('an ADMIN makes an API key, sees its secret once, uses it, revokes it and it is refused', async () => {
    await openFromNav('API keys');
    await page.getByLabel('Name').fill('Channel manager');
    await page.getByLabel('Role').selectOption('OPERATIONS');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('secret').textContent()) ?? '';
    expect(secret).toMatch(/^tops_/);
    await expectAccessible('api-keys with secret');
    await screenshot('02-api-key-secret-once');

    const tours = () =>
      fetch(`${t.baseUrl}/workspaces/${ws.workspaceId}/tours`, {
        headers: { Authorization: `Bearer ${secret}` },
      });
    expect((await tours()).status).toBe(200);

    await page.getByRole('button', { name: 'I have stored it' }).click();
    await soon(() => page.content()).not.toContain(secret);
    await page.reload();
    await soon(() => page.getByRole('row', { name: /Channel manager/ }).textContent()).toContain(
      'Operations',
    );
    expect(await page.content()).not.toContain(secret);

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Revoke Channel manager' }).click();
    await soon(() => page.getByRole('status').first().textContent()).toContain('revoked');
    expect((await tours()).status).toBe(401);
  });

  it('creates a tour with two ticket types, then a schedule that makes its departures', async () => {
    await openFromNav('Tours');
    await page.getByRole('link', { name: 'New tour' }).click();
    await soon(heading).toBe('New tour');
    const form = page.getByRole('form', { name: 'Tour' });
    await form.getByLabel('Name', { exact: true }).first().fill('Night Walk');
    await form.getByLabel('Duration (minutes)').fill('90');
    await form.getByLabel('Seats per departure').fill('16');
    await form.getByLabel('Currency').fill('EUR');
    await form.getByLabel('Time zone').selectOption('Europe/Berlin');
    await page.getByRole('button', { name: 'Add ticket type' }).click();
    await page.getByRole('button', { name: 'Add ticket type' }).click();
    const adult = page.getByRole('group', { name: 'Ticket type 1' });
    await adult.getByLabel('Name').fill('Adult');
    await adult.getByLabel('Price').fill('40');
    const child = page.getByRole('group', { name: 'Ticket type 2' });
    await child.getByLabel('Name').fill('Child');
    await child.getByLabel('Age band').selectOption('CHILD');
    await child.getByLabel('Price').fill('20.50');
    await page.getByLabel('Published: guests can see and book it').check();
    await page.getByRole('button', { name: 'Create tour' }).click();
    await soon(() => page.url()).toMatch(/\/tours\/tour_/);
    await soon(heading).toBe('Night Walk');

    const schedule = page.getByRole('form', { name: 'New schedule for Night Walk' });
    for (const day of ['Tue', 'Thu', 'Sat', 'Sun']) await schedule.getByLabel(day, { exact: true }).check();
    await schedule.getByLabel('Times').fill('09:00, 18:30');
    const lastDay = new Date(Date.now() + 13 * 86_400_000).toISOString().slice(0, 10);
    await schedule.getByLabel('Last day').fill(lastDay);
    await schedule.getByRole('button', { name: 'Create schedule' }).click();
    await soon(() => schedule.getByRole('status').textContent()).toMatch(
      /Schedule saved: \d+ departures made/,
    );
    await expectAccessible('tour');
    await screenshot('03-tour-with-schedule');

    const tourId = page.url().split('/').pop() as string;
    nightWalkId = tourId;
    const saved = await t.request('GET', `/workspaces/${ws.workspaceId}/tours/${tourId}`, {
      token: ws.token,
    });
    expect(saved.body.data.ticketTypes.map((tt: any) => [tt.name, tt.ageBand, tt.price])).toEqual([
      ['Adult', 'ADULT', 4000],
      ['Child', 'CHILD', 2050],
    ]);
    expect(saved.body.data).toMatchObject({ timeZone: 'Europe/Berlin', isPublic: true, capacity: 16 });
    const schedules = await t.request('GET', `/workspaces/${ws.workspaceId}/tours/${tourId}/schedules`, {
      token: ws.token,
    });
    expect(schedules.body.data).toHaveLength(1);
    expect(schedules.body.data[0]).toMatchObject({ times: ['09:00', '18:30'], endsOn: lastDay });
  });

  it('a booking made through the API appears on Today; the manifest checks a participant in', async () => {
    const tour = await createTour(t, ws, {
      name: 'Harbour Lights',
      capacity: 10,
      timeZone: zoneWithRoomToday(),
    });
    const departure = await createDeparture(t, ws, tour.id, {
      startsAt: new Date(Date.now() + 60 * 60_000).toISOString(),
    });
    departureId = departure.id;
    const booked = await t.request('POST', `/workspaces/${ws.workspaceId}/bookings`, {
      token: ws.token,
      headers: { 'Idempotency-Key': crypto.randomUUID() },
      body: {
        availabilityId: departure.id,
        paymentMode: 'MANUAL',
        customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
        participants: [{ name: 'Ada Lovelace' }, { name: 'Charles Babbage' }],
      },
    });
    expect(booked.status).toBe(201);
    const bookingId = booked.body.data.id;
    const confirmed = await t.request('POST', `/workspaces/${ws.workspaceId}/bookings/${bookingId}/status`, {
      token: ws.token,
      body: { status: 'CONFIRMED' },
    });
    expect(confirmed.status).toBe(200);

    await openFromNav('Today');
    const card = page
      .getByRole('region', { name: 'Departures today' })
      .getByRole('listitem')
      .filter({ hasText: 'Harbour Lights' });
    await soon(() => card.textContent()).toContain('2 / 10 sold');
    await soon(() => card.textContent()).toContain('0 of 2 checked in');
    await expect
      .poll(() => page.getByRole('region', { name: 'Last 7 days' }).textContent())
      .toContain('Ada Lovelace +1');
    await expectAccessible('today');
    await screenshot('04-today');

    await card.getByRole('link', { name: /Harbour Lights/ }).click();
    await soon(heading).toMatch(/^Harbour Lights, /);
    await page.getByRole('button', { name: 'Check in Ada Lovelace' }).click();
    await expect
      .poll(() => page.getByRole('row', { name: /^Ada Lovelace/ }).textContent())
      .toMatch(/Checked in \d\d:\d\d/);
    await soon(() => page.getByText('1 of 2 checked in').count()).toBe(1);
    const after = await t.request('GET', `/workspaces/${ws.workspaceId}/bookings/${bookingId}`, {
      token: ws.token,
    });
    const checked = after.body.data.participants.map((p: any) => [p.name, p.checkedInAt !== null]);
    expect(checked).toEqual([
      ['Ada Lovelace', true],
      ['Charles Babbage', false],
    ]);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    expect((await download).suggestedFilename()).toMatch(
      /^manifest-harbour-lights-\d{4}-\d\d-\d\d-\d{4}\.csv$/,
    );
    await expectAccessible('departure');
    await screenshot('05-departure-manifest');
  });

  it("assignments show the server's refusal in words; a status change keeps its reason", async () => {
    const vehicle = await t.request('POST', `/workspaces/${ws.workspaceId}/vehicles`, {
      token: ws.token,
      body: { name: 'Minibus', seats: 2 },
    });
    expect(vehicle.status).toBe(201);
    await page.reload();
    const crew = page.getByRole('form', { name: 'Guide, driver and vehicle' });
    await crew.getByLabel('Vehicle').selectOption({ label: 'Minibus (2 seats)' });
    await crew.getByRole('button', { name: 'Save assignments' }).click();
    await soon(() => crew.getByRole('alert').textContent()).toContain(
      'The vehicle seats 2; the departure holds 10.',
    );
    await soon(() => crew.locator('.field-error').textContent()).toBe('Too few seats for this departure.');
    await expectAccessible('departure with an assignment refused');
    await screenshot('05b-assignment-refused');

    await page
      .getByRole('row', { name: /^Charles Babbage/ })
      .getByRole('link', { name: 'Ada Lovelace' })
      .click();
    await soon(heading).toBe('Booking of Ada Lovelace');
    const status = page.getByRole('form', { name: 'Change status' });
    await status.getByLabel('New status').selectOption('CANCELLED');
    await status.getByLabel('Reason').fill('Storm warning');
    await status.getByRole('button', { name: 'Change status' }).click();
    await soon(() => page.getByRole('region', { name: 'History' }).textContent()).toContain(
      'Confirmed → Cancelled · Storm warning',
    );
    await soon(() => page.getByText('Cancelled because').count()).toBe(1);
    await screenshot('05c-booking-cancelled');
  });

  it('the other pages render without a reload, pass axe, and work at 375 px', async () => {
    await page.evaluate(() => {
      (globalThis as any).stillTheSamePage = true;
    });
    for (const [label, title] of [
      ['Departures', 'Departures'],
      ['Bookings', 'Bookings'],
      ['Customers', 'Customers'],
      ['Resources', 'Resources'],
      ['Incidents', 'Incidents'],
      ['Members', 'Members'],
      ['Webhooks', 'Webhooks'],
      ['Tours', 'Tours'],
    ] as const) {
      await openFromNav(label, title);
      await expectAccessible(label);
      await screenshot(`06-${label.toLowerCase()}`);
    }
    await openFromNav('Departures');
    await page.getByRole('button', { name: 'Month' }).click();
    await soon(() => page.url()).toContain('view=month');
    await expectAccessible('departures month');
    await screenshot('07-departures-month');
    await openFromNav('Bookings');
    await page.getByRole('link', { name: 'Ada Lovelace' }).click();
    await soon(heading).toBe('Booking of Ada Lovelace');
    await soon(() => page.getByRole('region', { name: 'History' }).textContent()).toContain('Confirmed');
    await expectAccessible('booking');
    await screenshot('08-booking');

    // The other workspace, where this person is OPERATIONS: no API keys, no webhooks.
    await page.getByLabel('Workspace').selectOption(otherWs.workspaceId);
    await soon(heading).toBe('Today');
    await soon(() => page.getByRole('banner').textContent()).toContain('(Operations)');
    expect(await page.getByRole('navigation', { name: 'Console' }).textContent()).not.toContain('API keys');
    await page.getByLabel('Workspace').selectOption(ws.workspaceId);
    await soon(() => page.getByRole('banner').textContent()).toContain('(Admin)');

    // Every page change above happened in the one document the sign-in loaded.
    expect(await page.evaluate(() => (globalThis as any).stillTheSamePage)).toBe(true);

    await page.setViewportSize({ width: 375, height: 812 });
    for (const label of ['Today', 'Bookings', 'Departures']) {
      await openFromNav(label);
      const overflow = await page.evaluate(() => {
        const { document, innerWidth } = globalThis as any;
        return document.documentElement.scrollWidth - innerWidth;
      });
      expect(overflow, `${label} scrolls sideways at 375 px`).toBeLessThanOrEqual(0);
      await expectAccessible(`${label} at 375 px`);
      await screenshot(`09-${label.toLowerCase()}-375px`);
    }
    // The members page names the CLI command a newcomer can run (npm, no pnpm needed).
    await page.setViewportSize({ width: 390, height: 844 });
    await openFromNav('Members');
    await soon(() => page.locator('main').textContent()).toContain('npm run cli -- member:create');
    await screenshot('09-members-390px');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('a READ_ONLY member sees no write controls (the server still decides)', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await soon(heading).toBe('Sign in');
    await signIn(reader.email, reader.password);
    await soon(heading).not.toBe('Sign in');
    const nav = await page.getByRole('navigation', { name: 'Console' }).textContent();
    expect(nav).not.toContain('API keys');
    expect(nav).not.toContain('Webhooks');

    const WRITE =
      /create|new |save|check in|revoke|remove|report|change|refund|move|edit|add |rotate|resend|delete/i;
    const writeControls = async () => {
      const buttons = await page.getByRole('button').allTextContents();
      const links = await page.getByRole('link').allTextContents();
      const fields = await page
        .locator('main input:not([type=date]):not([type=search]), main textarea')
        .count();
      return { buttons: [...buttons, ...links].filter((text) => WRITE.test(text)), fields };
    };
    for (const [path, title] of [
      ['today', 'Today'],
      ['departures', 'Departures'],
      [`departures/${departureId}`, /^Harbour Lights/],
      ['bookings', 'Bookings'],
      ['tours', 'Tours'],
      [`tours/${nightWalkId}`, 'Night Walk'],
      ['resources', 'Resources'],
      ['incidents', 'Incidents'],
      ['members', 'Members'],
    ] as const) {
      await page.goto(`${t.baseUrl}/app/${ws.workspaceId}/${path}`);
      await soon(heading).toMatch(title);
      await settled();
      const found = await writeControls();
      // Bookings and departures keep their filters (text and date inputs that change nothing).
      expect(found.buttons, path).toEqual([]);
      if (!['bookings', 'departures'].includes(path)) expect(found.fields, path).toBe(0);
      await screenshot(`10-read-only-${path.split('/')[0]}${path.includes('/') ? '-one' : ''}`);
    }
    const refused = await page.evaluate(async (workspaceId) => {
      const res = await fetch(`/workspaces/${workspaceId}/incidents`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ title: 'x', severity: 'LOW', occurredAt: new Date().toISOString() }),
      });
      return res.status;
    }, ws.workspaceId);
    expect(refused).toBe(403);
  });

  it('an expired session sends the member back to sign-in, saying so', async () => {
    const knex = t.api.database.knex;
    await knex('sessions')
      .whereIn('id', knex('session_members').select('session_id').where({ member_id: reader.memberId }))
      .update({ expires_at: new Date(Date.now() - 1000) });
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Customers' }).click();
    await soon(heading).toBe('Sign in');
    await expect
      .poll(() => page.getByRole('status').first().textContent())
      .toBe('Your session has ended. Sign in again to continue.');
    await screenshot('11-session-ended');
    await signIn(reader.email, reader.password);
    await soon(heading).toBe('Customers');
  });

  it('loads at most 200 kB of JavaScript (gzip) on the first visit of /app/', async () => {
    const fresh = await browser.context.newPage();
    const scripts: { url: string; bytes: number }[] = [];
    // What crossed the wire: the compressed length the server sent (the cache may answer a reload).
    fresh.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      const headers = response.headers();
      expect(headers['content-encoding'], response.url()).toBe('gzip');
      scripts.push({ url: response.url(), bytes: Number(headers['content-length']) });
    });
    await fresh.goto(`${t.baseUrl}/app/`, { waitUntil: 'networkidle' });
    const total = scripts.reduce((sum, s) => sum + s.bytes, 0);
    console.info(`console first load: ${scripts.length} script(s), ${(total / 1024).toFixed(1)} kB gzip`);
    expect(scripts.length).toBeGreaterThan(0);
    expect(total).toBeLessThanOrEqual(200 * 1024);
    await fresh.close();
    expect(documentRequests.every((url) => url.startsWith(`${t.baseUrl}/app/`))).toBe(true);
    expect(problems).toEqual([]);
  });
});
