import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

/** Debian's chromium (`.ci/run` installs it); Playwright's own browser download is not used. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Headless Chromium with a fresh profile of its own. `hosts` maps made-up host names to
 * 127.0.0.1, so a page can be opened as a LAN address or a dev VM would serve it.
 */
export async function startBrowser(options: { hosts?: string[] } = {}): Promise<TestBrowser> {
  const profile = await mkdtemp(join(tmpdir(), 'travelops-chromium-'));
  const rules = (options.hosts ?? []).map((host) => `MAP ${host} 127.0.0.1`).join(', ');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...FLAGS, ...(rules ? [`--host-resolver-rules=${rules}`] : [])],
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
