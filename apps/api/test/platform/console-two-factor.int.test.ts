import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { totpCode } from '@travelops/auth';
import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceUpdate } from '../../src/cli/commands.js';
import { startBrowser, type TestBrowser } from '../support/browser.js';
import { startTestApi, type TestApi } from '../support/harness.js';

// Two-factor sign-in in the operator console (apps/console, built), in headless Chromium against
// the real API: enrol with the QR page, sign out, sign in with a code, a wrong code refused, a
// recovery code used once. Screenshots land in test/artifacts/console-two-factor/.
const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'artifacts', 'console-two-factor');

let t: TestApi;
let workspaceId: string;
let admin: { email: string; password: string };
let browser: TestBrowser;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  t = await startTestApi();
  ({ workspaceId } = await t.createWorkspace('ADMIN'));
  admin = await t.createMember(workspaceId, 'ADMIN');
  // The workspace asks its ADMINs for a second factor: the console opens on Security until it is on.
  const required = await workspaceUpdate(t.commandDeps, {
    workspace: workspaceId,
    'two-factor-required': 'ADMINS',
  });
  if (!required.ok) throw new Error(required.error.message);
  await mkdir(ARTIFACTS, { recursive: true });
  browser = await startBrowser();
  page = await browser.context.newPage();
  page.setDefaultTimeout(10_000);
  page.on('pageerror', (error) => problems.push(String(error)));
  page.on('console', (message) => {
    // Wrong codes are 4xx answers the browser logs; the page says so in words (tested below).
    if (message.type() === 'error' && !/status of 4\d\d/.test(message.text())) problems.push(message.text());
  });
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const soon = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 10_000 });
const heading = () => page.getByRole('heading', { level: 1 }).first().textContent();

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

/** Both widths the house looks at. */
async function screenshots(name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: join(ARTIFACTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function passwordStep() {
  await page.getByLabel('E-mail').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function signOut() {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await soon(heading).toBe('Sign in');
}

describe('two-factor sign-in in the console', () => {
  let secret: string;
  let recoveryCodes: string[];

  it('a workspace that requires it opens on Security; enrolling shows a QR code and, once confirmed, ten recovery codes', async () => {
    await page.goto(`${t.baseUrl}/app/`);
    await passwordStep();
    await soon(heading).toBe('Two-factor sign-in');
    await soon(() => page.getByRole('status').filter({ hasText: 'asks your role' }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    await soon(() => page.getByRole('img', { name: 'QR code of the two-factor secret' }).isVisible()).toBe(
      true,
    );
    secret = (await page.getByTestId('totp-secret').textContent()) as string;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await expectAccessible('enrolment');
    await screenshots('enrol');

    await page.getByLabel('Code from the app').fill(totpCode(secret, new Date(Date.now() + 5 * 30_000)));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await soon(() => page.getByText('The code is incorrect.').first().isVisible()).toBe(true);
    await page.getByLabel('Code from the app').fill(totpCode(secret, new Date()));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const list = page.getByTestId('recovery-codes');
    await soon(() => list.isVisible()).toBe(true);
    recoveryCodes = (await list.locator('code').allTextContents()).map((code) => code.trim());
    expect(recoveryCodes).toHaveLength(10);
    await screenshots('recovery-codes');
    await page.getByRole('button', { name: 'I have stored them' }).click();
    await soon(() => page.getByText('Two-factor sign-in is on').isVisible()).toBe(true);
    // The session passed the second factor: the workspace opens.
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Today' }).click();
    await soon(heading).toBe('Today');
  });

  it('signing in again asks for a code: a wrong one is refused in words, the right one opens the workspace', async () => {
    await signOut();
    await passwordStep();
    await soon(heading).toBe('Two-factor sign-in');
    await expectAccessible('second step');
    await screenshots('second-step');
    await page.getByLabel('Code').fill(totpCode(secret, new Date(Date.now() + 4 * 30_000)));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await soon(() => page.getByRole('alert').textContent()).toContain('The code is incorrect');
    await page.getByLabel('Code').fill(totpCode(secret, new Date(Date.now() + 30_000)));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await soon(heading).toBe('Today');
  });

  it('a recovery code signs in once; the same code again is refused', async () => {
    const [recovery] = recoveryCodes as [string];
    await signOut();
    await passwordStep();
    await soon(heading).toBe('Two-factor sign-in');
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(recovery);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await soon(heading).toBe('Today');

    await signOut();
    await passwordStep();
    await soon(heading).toBe('Two-factor sign-in');
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(recovery);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await soon(() => page.getByRole('alert').textContent()).toContain('used already');
    expect(problems).toEqual([]);
  });
});
