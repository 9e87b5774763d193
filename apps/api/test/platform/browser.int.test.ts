import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { book } from '../support/booking-fixtures.js';
import { startBrowser, type TestBrowser } from '../support/browser.js';
import { createDeparture, createTour, type TestWorkspace } from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';

// What a person sees in a real browser: CSP, forms and the rendered reference.
let t: TestApi;
let ws: TestWorkspace;
let browser: TestBrowser;
beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
  browser = await startBrowser({ hosts: ['devvm.test'] });
});
afterAll(async () => {
  await browser?.close();
  await t.close();
});

describe('sandbox checkout', () => {
  it('Pay works over plain http on a host other than localhost (a LAN address, a dev VM)', async () => {
    const tour = await createTour(t, ws, { capacity: 10 });
    const departure = await createDeparture(t, ws, tour.id, { capacity: 10 });
    const booking = await book(t, ws, departure.id);
    const url = t.local(booking.checkoutUrl).replace('127.0.0.1', 'devvm.test');
    expect(url).toMatch(/^http:\/\/devvm\.test:\d+\/sandbox\/pay\//);

    const page = await browser.context.newPage();
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
    });
    await page.goto(url);
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await expect.poll(() => page.locator('h1').textContent(), { timeout: 10_000 }).toBe('Payment received');
    expect(page.url()).toBe(url);
    expect(blocked).toEqual([]);
    await page.close();

    const after = await t.request('GET', `/workspaces/${ws.workspaceId}/bookings/${booking.id}`, {
      token: ws.token,
    });
    expect(after.body.data).toMatchObject({ status: 'CONFIRMED', paymentStatus: 'PAID' });
  });
});

describe('/docs', () => {
  it("renders the reference under its CSP: a tag page shows createBooking's nested request fields without a click", async () => {
    const page = await browser.context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(String(error)));
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(`${t.baseUrl}/docs`);
    await page
      .getByRole('navigation', { name: 'Reference sections' })
      .getByRole('link', { name: 'Bookings', exact: true })
      .click();
    await page.waitForURL(`${t.baseUrl}/docs/bookings`);
    const operation = page.locator('#createBooking');
    await expect
      .poll(() => operation.getByRole('heading', { level: 2 }).textContent())
      .toBe('Book seats on a departure');
    const body = operation.locator('h3:has-text("Request body") + p + ul.fields');
    for (const field of ['availabilityId', 'customer', 'participants', 'addOns', 'paymentMode', 'notes']) {
      expect(
        await body.locator(':scope > li > .field > code.name', { hasText: field }).first().isVisible(),
        field,
      ).toBe(true);
    }
    // One level down, in the open: the customer's e-mail and a participant's age band.
    const nested = body.locator(':scope > li > ul.fields > li > .field > code.name');
    for (const field of ['email', 'ageBand']) {
      expect(
        await nested
          .filter({ hasText: new RegExp(`^${field}$`) })
          .first()
          .isVisible(),
        field,
      ).toBe(true);
    }
    expect(await accessibilityProblems(page)).toEqual([]);
    // On a phone: nothing wider than the screen, and the nested fields still open.
    await page.setViewportSize({ width: 390, height: 844 });
    const overflow = await page.evaluate(() => {
      const browserWindow = globalThis as any;
      return browserWindow.document.documentElement.scrollWidth - browserWindow.innerWidth;
    });
    expect(overflow).toBeLessThanOrEqual(0);
    expect(
      await nested
        .filter({ hasText: /^email$/ })
        .first()
        .isVisible(),
    ).toBe(true);
    // Nothing fetched from elsewhere, nothing refused by the policy, no script error.
    expect(requests.filter((url) => !url.startsWith(t.baseUrl))).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('guest page', () => {
  it('fits a 390 px phone: a long reference and date wrap inside their card, nothing scrolls sideways', async () => {
    const tour = await createTour(t, ws, { capacity: 10 });
    const departure = await createDeparture(t, ws, tour.id, { capacity: 10 });
    const booking = await book(t, ws, departure.id);
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${t.baseUrl}/b/${booking.publicToken}`);
    await expect.poll(() => page.getByText(booking.id).isVisible()).toBe(true);
    const overflow = await page.evaluate(() => {
      const browserWindow = globalThis as any;
      return browserWindow.document.documentElement.scrollWidth - browserWindow.innerWidth;
    });
    expect(overflow).toBeLessThanOrEqual(0);
    await page.close();
  });
});

/** Serious and critical accessibility problems axe-core finds on the page. */
async function accessibilityProblems(page: Page): Promise<string[]> {
  await page.evaluate(axe.source);
  return page.evaluate(async () => {
    const browserWindow = globalThis as any;
    const result = await browserWindow.axe.run(browserWindow.document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
      .map((v: any) => `${v.id}: ${v.help} (${v.nodes.length})`);
  });
}
