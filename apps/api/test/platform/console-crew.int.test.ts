import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowser, type TestBrowser } from '../support/browser.js';
import { createDeparture, createTour, type TestWorkspace } from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';
import { assign, must, newGuide, newVehicle } from '../support/operations-fixtures.js';

// The console assigns a departure's guide, driver and vehicle by choosing among those free at
// its time (issue 27 item 4): busy ones (another departure overlapping it, time off) are left out.
const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'artifacts', 'console-crew');

let t: TestApi;
let ws: TestWorkspace;
let admin: { email: string; password: string };
let browser: TestBrowser;
let page: Page;

beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
  admin = await t.createMember(ws.workspaceId, 'ADMIN');
  await mkdir(ARTIFACTS, { recursive: true });
  browser = await startBrowser();
  page = await browser.context.newPage();
  page.setDefaultTimeout(10_000);
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const soon = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 10_000 });

describe('assigning a crew in the console', () => {
  it('lists only the guides and vehicles free at the departure: one busy on an overlapping departure is left out, and said so', async () => {
    const tour = await createTour(t, ws, { durationMinutes: 120, timeZone: 'Europe/Lisbon' });
    const startsAt = '2031-07-15T09:00:00.000Z';
    const first = await createDeparture(t, ws, tour.id, { startsAt });
    const second = await createDeparture(t, ws, tour.id, { startsAt: '2031-07-15T10:00:00.000Z' });
    const later = await createDeparture(t, ws, tour.id, { startsAt: '2031-07-15T15:00:00.000Z' });
    const busyGuide = await newGuide(t, ws, 'Busy Bea');
    await newGuide(t, ws, 'Free Flo');
    const busyVan = await newVehicle(t, ws, { name: 'Busy van' });
    await newVehicle(t, ws, { name: 'Free van' });
    const newResource = (body: Record<string, unknown>) =>
      t.request('POST', `/workspaces/${ws.workspaceId}/resources`, { token: ws.token, body });
    const room = must('room', await newResource({ kind: 'ROOM', name: 'Busy room' }), 201);
    const boat = must(
      'boat',
      await newResource({ kind: 'BOAT', name: 'Marlin', seats: 30, sharing: 'SHARED_SEATS' }),
      201,
    );
    must(
      'assign the first',
      await assign(t, ws, first.id, { guideId: busyGuide, vehicleId: busyVan.id, resourceIds: [room.id] }),
      200,
    );

    await page.goto(`${t.baseUrl}/app/`);
    await page.getByLabel('E-mail').fill(admin.email);
    await page.getByLabel('Password').fill(admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await soon(() => page.getByRole('heading', { level: 1 }).first().textContent()).toBe('Today');

    const options = async (label: string) =>
      (await page.getByLabel(label, { exact: true }).locator('option').allTextContents()).map((o) =>
        o.trim(),
      );
    await page.goto(`${t.baseUrl}/app/${ws.workspaceId}/departures/${second.id}`);
    await soon(() => page.getByTestId('busy-hidden').isVisible()).toBe(true);
    expect(await options('Guide')).toEqual(['Nobody', 'Free Flo']);
    expect(await options('Vehicle')).toEqual(['None', 'Free van (12 seats)']);
    expect(await page.getByTestId('busy-hidden').textContent()).toContain('3 busy');
    // The shared boat is listed (its seats are shared, not taken), the busy room is not.
    expect(await page.getByLabel('Busy room').count()).toBe(0);
    await page.getByLabel('Marlin (30 seats, shared)').check();
    await page.getByRole('button', { name: 'Save assignments' }).click();
    await soon(() => page.getByText('Assignments saved.').isVisible()).toBe(true);
    const listed = must(
      'the departures',
      await t.request('GET', `/workspaces/${ws.workspaceId}/availability?tourId=${tour.id}`, {
        token: ws.token,
      }),
      200,
    ) as { id: string; resourceIds: string[] }[];
    expect(listed.find((d) => d.id === second.id)?.resourceIds).toEqual([boat.id]);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: join(ARTIFACTS, `crew-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    // Later that day nobody is busy; on the first departure its own crew stays listed.
    await page.goto(`${t.baseUrl}/app/${ws.workspaceId}/departures/${later.id}`);
    await soon(() => options('Guide')).toEqual(['Nobody', 'Free Flo', 'Busy Bea']);
    expect(await page.getByTestId('busy-hidden').count()).toBe(0);
    await page.goto(`${t.baseUrl}/app/${ws.workspaceId}/departures/${first.id}`);
    await soon(() => options('Vehicle')).toEqual(['None', 'Free van (12 seats)', 'Busy van (12 seats)']);
  });
});
