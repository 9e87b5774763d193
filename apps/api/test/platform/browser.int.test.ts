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
  it('renders the reference under its CSP: createBooking shows the fields of BookingCreate', async () => {
    const page = await browser.context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(String(error)));
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(`${t.baseUrl}/docs`);
    const operation = page.locator('[id="tag/Bookings/operation/createBooking"]');
    await operation.waitFor({ timeout: 30_000 });
    const text = (await operation.textContent()) ?? '';
    for (const field of ['availabilityId', 'customer', 'participants', 'addOns', 'paymentMode', 'notes']) {
      expect(text, field).toContain(field);
    }
    // Nothing fetched from elsewhere, nothing refused by the policy, no script error.
    expect(requests.filter((url) => !url.startsWith(t.baseUrl) && !url.startsWith('blob:'))).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
