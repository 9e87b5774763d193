import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../src/cli/seed.js';
import { startBrowser, type TestBrowser } from '../support/browser.js';
import { startTestApi, type TestApi } from '../support/harness.js';

// docs/widget.md's snippets, saved as a file exactly as written and opened in Chromium, as its
// reader does; then the same tag wherever a site may put it: in <head>, in <body>, added after
// DOMContentLoaded, twice on one page, and under a strict Content-Security-Policy. The snippets
// name http://localhost:3000: the browser's requests there are answered by the API under test.
const root = join(import.meta.dirname, '..', '..', '..', '..');
const README = 'http://localhost:3000';
const artifacts = join(import.meta.dirname, '..', '..', 'test-artifacts', 'widget');
let t: TestApi;
let browser: TestBrowser;
let dir: string;
let snippets: string[];

beforeAll(async () => {
  await promisify(execFile)(process.execPath, [join(root, 'apps', 'widget', 'scripts', 'build.mjs')]);
  t = await startTestApi();
  await seedDemo(t.commandDeps);
  const page = await readFile(join(root, 'docs', 'widget.md'), 'utf8');
  const section = page.slice(
    page.indexOf('## Put a Book now button on your site'),
    page.indexOf('## Embedding'),
  );
  snippets = [...section.matchAll(/^```html\n([\s\S]*?)^```$/gm)].map((match) => match[1] as string);
  dir = await mkdtemp(join(tmpdir(), 'travelops-snippets-'));
  browser = await startBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Opens the HTML saved as a file; what it asks of localhost:3000 goes to the API under test. */
async function openSaved(name: string, html: string): Promise<{ page: Page; problems: string[] }> {
  const file = join(dir, name);
  await writeFile(file, html);
  const page = await browser.context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  await page.route(`${README}/**`, async (route) => {
    const url = route.request().url().replace(README, t.baseUrl);
    await route.fulfill({ response: await route.fetch({ url }) });
  });
  await page.goto(pathToFileURL(file).href);
  return { page, problems };
}

/** How many widgets show a first step a guest can use (a tour to choose, or a date). */
async function widgetsShown(page: Page, count: number) {
  const headings = page.getByRole('heading', { name: /^(Choose a tour|Choose a date)$/ });
  await expect.poll(() => headings.count(), { timeout: 20_000 }).toBe(count);
  for (let i = 0; i < count; i += 1) expect(await headings.nth(i).isVisible()).toBe(true);
}

const tag = (tour: string) =>
  `<script src="${README}/widget.js" data-workspace="demo" data-tour="${tour}" async></script>`;

describe("docs/widget.md's snippets, saved as book.html and opened", () => {
  it('there are two snippets, both loading the widget from the quick start address', () => {
    expect(snippets).toHaveLength(2);
    for (const snippet of snippets) expect(snippet).toContain(`${README}/widget.js`);
  });

  it.each([0, 1])('snippet %i, alone in a file, shows the widget', async (index) => {
    const { page, problems } = await openSaved(`book-${index}.html`, snippets[index] as string);
    await widgetsShown(page, 1);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe("the demo tour's details step, from the first snippet", () => {
  it.each([1280, 390])(
    'a tour without ticket types names each seat "Name of guest N" (at %i px, screenshot kept)',
    async (width) => {
      const { page, problems } = await openSaved('book.html', snippets[0] as string);
      await page.setViewportSize({ width, height: 900 });
      await widgetsShown(page, 1);
      const day = page.getByRole('button', { name: /: (available|few seats left)/ });
      // The demo's departures start tomorrow: in the next month on a month's last day.
      if ((await day.count()) === 0) await page.getByRole('button', { name: 'Next month' }).click();
      await day.first().click();
      await page
        .getByRole('button', { name: /seats? left/ })
        .first()
        .click();
      await page.getByRole('heading', { name: 'Who is coming?' }).waitFor();
      await page.getByRole('button', { name: 'Add one Guests' }).click();
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('heading', { name: 'Your details' }).waitFor();
      await expect(page.getByRole('textbox', { name: /^Name of / }).count()).resolves.toBe(2);
      expect(await page.getByRole('textbox', { name: 'Name of guest 1' }).isVisible()).toBe(true);
      expect(await page.getByRole('textbox', { name: 'Name of guest 2' }).isVisible()).toBe(true);
      await mkdir(artifacts, { recursive: true });
      await page.screenshot({ path: join(artifacts, `snippet-details-${width}.png`), fullPage: true });
      expect(problems).toEqual([]);
      await page.close();
    },
  );
});

describe('the script tag wherever a site puts it', () => {
  const pages: Record<string, string> = {
    'in <head>, not async': `<!doctype html><html lang="en"><head><title>Head</title>
<script src="${README}/widget.js" data-workspace="demo" data-tour="old-town-walk"></script></head>
<body><h1>Harbour Tours</h1></body></html>`,
    'in <head>, async': `<!doctype html><html lang="en"><head><title>Head</title>${tag('old-town-walk')}</head>
<body><h1>Harbour Tours</h1></body></html>`,
    'in <body>': `<!doctype html><html lang="en"><head><title>Body</title></head>
<body><h1>Harbour Tours</h1>${tag('old-town-walk')}<p>After the widget.</p></body></html>`,
    'added by a script after DOMContentLoaded': `<!doctype html><html lang="en"><head><title>Late</title>
<script>document.addEventListener('DOMContentLoaded', () => setTimeout(() => {
  const s = document.createElement('script');
  s.src = '${README}/widget.js'; s.dataset.workspace = 'demo'; s.dataset.tour = 'sunset-kayak';
  document.head.append(s);
}, 100));</script></head><body><h1>Harbour Tours</h1></body></html>`,
  };
  it.each(Object.keys(pages))('%s: the widget shows', async (where) => {
    const { page, problems } = await openSaved('where.html', pages[where] as string);
    await widgetsShown(page, 1);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('twice on one page: two widgets, one per tag', async () => {
    const html = `<!doctype html><html lang="en"><head><title>Twice</title>${tag('old-town-walk')}</head>
<body><h1>Two tours</h1>${tag('sunset-kayak')}</body></html>`;
    const { page, problems } = await openSaved('twice.html', html);
    await widgetsShown(page, 2);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("under a strict Content-Security-Policy that allows the script's origin, in <head>", async () => {
    const csp = `default-src 'none'; script-src ${README}; connect-src ${README}`;
    const html = `<!doctype html><html lang="en"><head><meta http-equiv="Content-Security-Policy" content="${csp}">
<title>Strict</title>${tag('old-town-walk')}</head><body><h1>Harbour Tours</h1></body></html>`;
    const { page, problems } = await openSaved('strict.html', html);
    await widgetsShown(page, 1);
    expect(problems).toEqual([]);
    await page.close();
  });
});
