import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowser, type TestBrowser } from '../support/browser.js';
import { createDeparture, createTour, type TestWorkspace } from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';
import { freePort } from '../support/processes.js';

// A guest on an operator's site (another origin) books through the embedded widget, pays in the
// sandbox, and lands on the booking page; all in headless Chromium against the real API.
const root = join(import.meta.dirname, '..', '..', '..', '..');
const artifacts = join(import.meta.dirname, '..', '..', 'test-artifacts', 'widget');
const axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let t: TestApi;
let ws: TestWorkspace;
let host: Server;
let hostUrl: string;
let browser: TestBrowser;
let family: { tour: any; departure: any };
let lastSeat: { tour: any; departure: any };

/** The operator's site: plain pages that embed the widget with one script tag, or the element. */
function hostPages(apiBase: string, slug: string): Server {
  const hostile =
    '* { all: unset !important; } html, body, main, p { font-size: 48px !important; line-height: 4 !important; } ' +
    'travelops-booking { font-size: 72px !important; display: inline !important; color: red !important; }';
  const pages: Record<string, { html: string; csp?: string }> = {
    '/': {
      html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Harbour Tours</title></head>
<body><main><h1>Harbour Tours</h1><p>Book your trip below.</p>
<script src="${apiBase}/widget.js" data-workspace="${slug}" data-tour="family-walk"></script>
</main></body></html>`,
    },
    // Hostile CSS, the custom element, and a strict Content-Security-Policy without inline styles.
    '/hostile': {
      html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Hostile host</title>
<style>${hostile}</style></head>
<body><main><h1>Hostile host</h1><p id="host-text">This page resets everything.</p>
<travelops-booking workspace="${slug}" tour="family-walk"></travelops-booking>
<script src="${apiBase}/widget.js"></script></main></body></html>`,
      csp: `default-src 'none'; script-src ${apiBase}; connect-src ${apiBase}; style-src 'sha256-${createHash('sha256').update(hostile).digest('base64')}'`,
    },
    '/all-tours': {
      html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>All tours</title></head>
<body><main><h1>All tours</h1>
<script src="${apiBase}/widget.js" data-workspace="${slug}" async></script>
</main></body></html>`,
    },
    '/last-seat': {
      html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Last seat</title></head>
<body><main><h1>Last seat</h1>
<script src="${apiBase}/widget.js" data-workspace="${slug}" data-tour="last-seat"></script>
</main></body></html>`,
    },
  };
  return createServer((req, res) => {
    const page = pages[req.url ?? ''];
    if (!page) return void res.writeHead(404).end();
    res.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      ...(page.csp && { 'Content-Security-Policy': page.csp }),
    });
    res.end(page.html);
  });
}

beforeAll(async () => {
  // The API serves the bundle it finds at start: build the one under test first.
  await promisify(execFile)(process.execPath, [join(root, 'apps', 'widget', 'scripts', 'build.mjs')]);
  await mkdir(artifacts, { recursive: true });
  const port = await freePort();
  t = await startTestApi({ PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` });
  ws = await t.createWorkspace('ADMIN');
  const tourFields = {
    isPublic: true,
    currency: 'EUR',
    timeZone: 'Europe/Berlin',
    meetingPoint: 'Old Harbour, pier 3',
    ticketTypes: [
      { name: 'Adult', ageBand: 'ADULT', price: 4_000 },
      { name: 'Child', ageBand: 'CHILD', price: 2_000, minAge: 4, maxAge: 12, requiresAdult: true },
      { name: 'Infant', ageBand: 'INFANT', price: 0, minAge: 0, maxAge: 3, requiresAdult: true },
    ],
  };
  const startsAt = new Date(Math.ceil((Date.now() + 5 * 86_400_000) / 3_600_000) * 3_600_000).toISOString();
  const familyTour = await createTour(t, ws, {
    ...tourFields,
    name: 'Family Harbour Walk',
    slug: 'family-walk',
  });
  family = {
    tour: familyTour,
    departure: await createDeparture(t, ws, familyTour.id, { capacity: 12, startsAt }),
  };
  const lastTour = await createTour(t, ws, { ...tourFields, name: 'Lighthouse at Dawn', slug: 'last-seat' });
  lastSeat = {
    tour: lastTour,
    departure: await createDeparture(t, ws, lastTour.id, { capacity: 1, startsAt }),
  };

  // Another origin: the operator's site is http://shop.test:<port>, the API http://127.0.0.1:<port>.
  host = hostPages(t.baseUrl, ws.slug).listen(0, '127.0.0.1');
  await new Promise((resolve) => host.once('listening', resolve));
  hostUrl = `http://shop.test:${(host.address() as AddressInfo).port}`;
  browser = await startBrowser({ hosts: ['shop.test'] });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => host?.close(resolve));
  await t?.close();
});

/** Serious and critical accessibility problems axe-core finds on the page, Shadow DOM included. */
async function axeProblems(page: Page): Promise<string[]> {
  // Evaluated, not injected as a <script>: the guest page's policy allows no script at all.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as any).axe;
    const result = await axe.run((globalThis as any).document, { resultTypes: ['violations'] });
    return result.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((n: any) => String(n.target)),
    }));
  });
  return violations
    .filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v: { id: string; impact: string; nodes: string[] }) => `${v.impact} ${v.id}: ${v.nodes.join(' | ')}`,
    );
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });

/** The local day of the departure, and whether the calendar must move a month on to show it. */
async function openDepartureDay(page: Page, startsAt: string) {
  const local = (iso: string) =>
    new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit' }).format(
      new Date(iso),
    );
  if (local(startsAt) !== local(new Date().toISOString())) {
    await page.getByRole('button', { name: 'Next month' }).click();
  }
  await page.getByRole('button', { name: /: (available|few seats left)/ }).click();
}

/** From the host page to the details step with the given counts per ticket type (beyond 1 adult). */
async function chooseUpToDetails(
  page: Page,
  startsAt: string,
  extra: { adults?: number; child?: boolean; infant?: boolean },
) {
  await page.getByRole('heading', { name: 'Choose a date' }).waitFor();
  await openDepartureDay(page, startsAt);
  await page.getByRole('button', { name: /seats? left/ }).click();
  await page.getByRole('heading', { name: 'Who is coming?' }).waitFor();
  for (let i = 0; i < (extra.adults ?? 0); i += 1)
    await page.getByRole('button', { name: 'Add one Adult' }).click();
  if (extra.child) await page.getByRole('button', { name: 'Add one Child' }).click();
  if (extra.infant) await page.getByRole('button', { name: 'Add one Infant' }).click();
}

async function fillDetails(page: Page, participants: string[], email: string) {
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Your details' }).waitFor();
  const inputs = page.getByRole('textbox', { name: /^Name of / });
  for (const [i, name] of participants.entries()) await inputs.nth(i).fill(name);
  await page.getByRole('textbox', { name: 'Your name' }).fill(participants[0] as string);
  await page.getByRole('textbox', { name: 'E-mail' }).fill(email);
}

const bookingsOn = (departureId: string) =>
  t.api.database
    .knex('bookings')
    .where({ availability_id: departureId })
    .select('id', 'status', 'public_token');

describe('the booking widget on an operator site', () => {
  it('a family (two adults, a child, an infant) books, pays in the sandbox, signs the waivers and takes the .ics', async () => {
    const page = await browser.context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(String(error)));
    const posts: { key: string | undefined }[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith(`/public/${ws.slug}/bookings`)) {
        posts.push({ key: request.headers()['idempotency-key'] });
      }
    });

    await page.goto(`${hostUrl}/`);
    await page.getByRole('heading', { name: 'Choose a date' }).waitFor();
    await shot(page, '01-calendar');
    expect(await axeProblems(page)).toEqual([]);

    await chooseUpToDetails(page, family.departure.startsAt, { adults: 1, child: true, infant: true });
    // The live price: 2 x 40.00 + 20.00 + 0.00.
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Total' }).textContent())
      .toBe('Total: €100.00');
    await shot(page, '02-participants');
    expect(await axeProblems(page)).toEqual([]);

    await fillDetails(page, ['Ada Harbour', 'Ben Harbour', 'Cleo Harbour', 'Dot Harbour'], 'ada@example.com');
    await shot(page, '03-details');
    expect(await axeProblems(page)).toEqual([]);

    // A double click books once: one request, with an Idempotency-Key.
    await page.getByRole('button', { name: 'Book and pay €100.00' }).dblclick();
    await page.waitForURL(/\/sandbox\/pay\//, { timeout: 15_000 });
    expect(posts).toHaveLength(1);
    expect(posts[0]?.key).toMatch(/^[0-9a-f-]{36}$/);
    const [booking] = await bookingsOn(family.departure.id);
    expect(await bookingsOn(family.departure.id)).toHaveLength(1);
    await shot(page, '04-sandbox');

    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.getByRole('heading', { name: 'Payment received' }).waitFor();
    await page.getByRole('link', { name: 'View your booking' }).click();
    await page.waitForURL(new RegExp(`/b/${booking.public_token}$`));
    await page.getByRole('heading', { name: 'Family Harbour Walk' }).waitFor();
    expect(await page.getByText('Confirmed', { exact: true }).count()).toBe(1);
    expect(await page.getByText('Old Harbour, pier 3').count()).toBe(1);
    // Each participant under the ticket type they were sold.
    for (const [name, ticket] of [
      ['Ada Harbour', 'Adult'],
      ['Cleo Harbour', 'Child'],
      ['Dot Harbour', 'Infant'],
    ]) {
      expect(await page.getByRole('row', { name: `${name} ${ticket}` }).count(), name).toBe(1);
    }
    await shot(page, '05-booking-page');
    expect(await axeProblems(page)).toEqual([]);

    for (const name of ['Ada Harbour', 'Ben Harbour', 'Cleo Harbour', 'Dot Harbour']) {
      await page
        .getByRole('textbox', { name: `Full name of the person signing for ${name}` })
        .fill('Ada Harbour');
      await page.getByRole('checkbox', { name: `I accept the waiver for ${name}` }).check();
      await page.getByRole('button', { name: `Sign the waiver for ${name}` }).click();
      await page.getByText('Thank you: the waiver is signed.').waitFor();
    }
    await page.getByText('Every participant has signed the waiver.').waitFor();
    await shot(page, '06-waivers-signed');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Add to calendar (.ics)' }).click(),
    ]);
    const ics = await readFile((await download.path()) as string, 'utf8');
    expect(download.suggestedFilename()).toBe(`booking-${booking.id}.ics`);
    expect(ics).toContain('BEGIN:VEVENT');
    expect(ics).toContain(`DTSTART:${family.departure.startsAt.replace(/[-:]/g, '').replace(/\.\d{3}/, '')}`);
    expect(ics).toContain('SUMMARY:Family Harbour Walk');

    const guest = (await t.request('GET', `/public/bookings/${booking.public_token}`)).body.data;
    expect(guest).toMatchObject({ status: 'CONFIRMED', paymentStatus: 'PAID', totalAmount: 10_000 });
    expect(guest.participants.map((p: any) => [p.name, p.price, p.waiverSigned])).toEqual([
      ['Ada Harbour', 4_000, true],
      ['Ben Harbour', 4_000, true],
      ['Cleo Harbour', 2_000, true],
      ['Dot Harbour', 0, true],
    ]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('an invalid answer is shown in words; a 429 waits, says so and sends the same attempt again', async () => {
    const page = await browser.context.newPage();
    const keys: string[] = [];
    const cors = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': 'Retry-After' };
    // The first two answers are made up (a 400 naming the e-mail, then a 429); the third is the API's.
    await page.route(`${t.baseUrl}/public/${ws.slug}/bookings`, async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      keys.push(route.request().headers()['idempotency-key'] as string);
      if (keys.length === 1) {
        return route.fulfill({
          status: 400,
          headers: cors,
          contentType: 'application/json',
          body: JSON.stringify({
            error: {
              code: 'VALIDATION_ERROR',
              message: 'The request is invalid.',
              details: [{ field: 'customer.email', issue: 'invalid_format' }],
            },
          }),
        });
      }
      if (keys.length === 2) {
        return route.fulfill({
          status: 429,
          headers: { ...cors, 'Retry-After': '2' },
          contentType: 'application/json',
          body: JSON.stringify({ error: { code: 'RATE_LIMITED', message: 'Too many requests.' } }),
        });
      }
      return route.continue();
    });
    await page.goto(`${hostUrl}/`);
    await chooseUpToDetails(page, family.departure.startsAt, {});
    await fillDetails(page, ['Eve Retry'], 'eve@example.com');
    const book = page.getByRole('button', { name: /^Book and pay/ });
    await book.click();
    await page.getByRole('alert').filter({ hasText: 'E-mail: please check this.' }).waitFor();
    await shot(page, '09-invalid-in-words');
    await book.click();
    await page
      .getByRole('alert')
      .filter({ hasText: /Trying again in [12] seconds?/ })
      .waitFor();
    await shot(page, '10-rate-limited');
    await page.waitForURL(/\/sandbox\/pay\//, { timeout: 15_000 });
    // One logical booking, one key: the retry after the 429 and the second click reused it.
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    await page.close();
  });

  it('two browsers race for the last seat: one goes to pay, the other is asked to choose again', async () => {
    const other = await startBrowser({ hosts: ['shop.test'] });
    try {
      const pages = [await browser.context.newPage(), await other.context.newPage()];
      for (const [i, page] of pages.entries()) {
        await page.goto(`${hostUrl}/last-seat`);
        await chooseUpToDetails(page, lastSeat.departure.startsAt, {});
        await fillDetails(page, [`Racer ${i + 1}`], `racer${i + 1}@example.com`);
      }
      await Promise.all(pages.map((page) => page.getByRole('button', { name: /^Book and pay/ }).click()));
      const outcome = async (page: Page) => {
        const paying = page.waitForURL(/\/sandbox\/pay\//, { timeout: 15_000 }).then(() => 'paying' as const);
        const askedAgain = page
          .getByRole('alert')
          .filter({ hasText: 'Sorry, those seats were just taken' })
          .waitFor({ timeout: 15_000 })
          .then(() => 'asked again' as const);
        return Promise.race([paying, askedAgain]);
      };
      const outcomes = await Promise.all(pages.map(outcome));
      expect([...outcomes].sort()).toEqual(['asked again', 'paying']);
      const loser = pages[outcomes.indexOf('asked again')] as Page;
      // Availability was read again: the day has nothing left, and the guest is on the time step.
      await loser.getByRole('heading', { name: 'Choose a time' }).waitFor();
      await loser.getByText('Nothing is left on this day. Please choose another date.').waitFor();
      await shot(loser, '07-race-loser');
      expect(await bookingsOn(lastSeat.departure.id)).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it("the host page's hostile CSS and strict CSP break neither the widget nor the page", async () => {
    const page = await browser.context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(String(error)));
    page.on('console', (message) => {
      if (/Content Security Policy|Refused/i.test(message.text())) problems.push(message.text());
    });
    await page.goto(`${hostUrl}/hostile`);
    const heading = page.getByRole('heading', { name: 'Choose a date' });
    await heading.waitFor();
    const look = await page.evaluate(() => {
      // In the page (this file's types have no DOM).
      const { document, getComputedStyle } = globalThis as any;
      const element = document.querySelector('travelops-booking');
      const inside = element.shadowRoot;
      const style = (node: unknown) => getComputedStyle(node);
      const day = inside.querySelector('button.day');
      return {
        hostDisplay: style(element).display,
        hostFontSize: style(element).fontSize,
        headingFontSize: style(inside.querySelector('h2')).fontSize,
        dayHeight: day.getBoundingClientRect().height,
        widgetWidth: element.getBoundingClientRect().width,
        hostTextSize: style(document.getElementById('host-text')).fontSize,
        pageStyleElements: document.querySelectorAll('style').length,
        pageAdoptedSheets: document.adoptedStyleSheets.length,
      };
    });
    expect(look).toMatchObject({
      hostDisplay: 'block',
      hostFontSize: '16px',
      headingFontSize: '20.8px',
      // The page keeps its own (hostile) look: the widget added no style to it.
      hostTextSize: '48px',
      pageStyleElements: 1,
      pageAdoptedSheets: 0,
    });
    expect(look.dayHeight).toBeGreaterThan(30);
    expect(look.dayHeight).toBeLessThan(90);
    expect(look.widgetWidth).toBeGreaterThan(300);
    await shot(page, '08-hostile-host');
    // Still usable: the guest moves on to the times of the day.
    await openDepartureDay(page, family.departure.startsAt);
    await page.getByRole('heading', { name: 'Choose a time' }).waitFor();
    // Each step moves focus to its heading, for keyboard and screen-reader users (right after
    // the step renders: wait for it rather than race the render).
    await page
      .waitForFunction(
        () =>
          (globalThis as any).document.querySelector('travelops-booking')?.shadowRoot?.activeElement
            ?.textContent === 'Choose a time',
        null,
        { timeout: 5_000 },
      )
      .catch(() => {});
    expect(
      await page.evaluate(
        () =>
          (globalThis as any).document.querySelector('travelops-booking')?.shadowRoot?.activeElement
            ?.textContent,
      ),
    ).toBe('Choose a time');
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('more of the path', () => {
  it('without data-tour the guest first picks one of the published tours', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${hostUrl}/all-tours`);
    await page.getByRole('heading', { name: 'Choose a tour' }).waitFor();
    // The heading shows while the tours load: wait for the list itself before reading it.
    await expect.poll(() => page.getByRole('listitem').count(), { timeout: 10_000 }).toBe(2);
    const names = await page.getByRole('listitem').allTextContents();
    expect(names.map((text) => text.split(/\d/)[0]?.trim()).sort()).toEqual([
      'Family Harbour Walk',
      'Lighthouse at Dawn',
    ]);
    await page.getByRole('button', { name: /^Lighthouse at Dawn/ }).click();
    await page.getByRole('heading', { name: 'Choose a date' }).waitFor();
    await page.getByText('Step 2 of 5').waitFor();
    await page.close();
  });

  it("the booking page's Pay now takes a guest with an unpaid hold to a fresh checkout, under its CSP", async () => {
    const created = await t.request('POST', `/public/${ws.slug}/bookings`, {
      body: {
        availabilityId: family.departure.id,
        customer: { name: 'Fay Later', email: 'fay@example.com' },
        participants: [{ name: 'Fay Later' }],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const page = await browser.context.newPage();
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused/i.test(message.text())) refused.push(message.text());
    });
    await page.goto(`${t.baseUrl}/b/${created.body.data.publicToken}`);
    await page.getByText('Awaiting payment').waitFor();
    await page.getByRole('button', { name: 'Pay now' }).click();
    await page.waitForURL(/\/sandbox\/pay\/\w+$/, { timeout: 10_000 });
    expect(page.url()).not.toBe(t.local(created.body.data.checkoutUrl));
    expect(refused).toEqual([]);
    await page.close();
  });
});

describe('/widget.js', () => {
  it('loads from any origin, is cached with an ETag and revalidates with 304', async () => {
    const first = await fetch(`${t.baseUrl}/widget.js`, { headers: { Origin: 'https://shop.example' } });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(first.headers.get('access-control-allow-origin')).toBe('*');
    expect(first.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(first.headers.get('cache-control')).toContain('max-age=300');
    const etag = first.headers.get('etag') as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(await first.text()).toContain('travelops-booking');
    const again = await fetch(`${t.baseUrl}/widget.js`, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
  });
});
