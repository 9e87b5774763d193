import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app.js';
import { createUnitTestDeps } from './test-deps.js';

// A console build of two files, served as apps/console's would be.
const SCRIPT = 'console.log("the console");'.repeat(50);
let dir = '';
let base = '';
let close = () => {};
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'console-build-'));
  await mkdir(join(dir, 'assets'));
  await writeFile(
    join(dir, 'index.html'),
    '<!doctype html><script type="module" src="/app/assets/index-abc.js"></script>',
  );
  await writeFile(join(dir, 'assets', 'index-abc.js'), SCRIPT);
  const server = createApp(createUnitTestDeps([], { consoleDir: dir })).listen(0);
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(async () => {
  close();
  await rm(dir, { recursive: true, force: true });
});

describe('/app/', () => {
  it.each(['/app/', '/app/ws_1/today', '/app/ws_1/bookings?status=PENDING'])(
    '%s answers the page under a policy that allows this origin’s scripts only',
    async (path) => {
      const res = await fetch(`${base}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      const policy = res.headers.get('content-security-policy') ?? '';
      expect(policy).toMatch(/script-src 'self'(;|$)/);
      expect(policy).toContain("script-src-attr 'none'");
      expect(policy).not.toContain('unsafe');
    },
  );

  it('/app redirects to /app/', async () => {
    const res = await fetch(`${base}/app`, { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/app/');
  });

  it('assets are gzipped when asked, cached for good, and a missing one is a 404', async () => {
    const res = await fetch(`${base}/app/assets/index-abc.js`, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await res.text()).toBe(SCRIPT);
    const raw = await new Promise<{ encoding?: string; body: Buffer }>((resolve, reject) => {
      import('node:http').then(({ get }) =>
        get(`${base}/app/assets/index-abc.js`, { headers: { 'Accept-Encoding': 'gzip' } }, (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk) => chunks.push(chunk));
          answer.on('end', () =>
            resolve({ encoding: answer.headers['content-encoding'], body: Buffer.concat(chunks) }),
          );
        }).on('error', reject),
      );
    });
    expect(raw.encoding).toBe('gzip');
    expect(raw.body.length).toBeLessThan(SCRIPT.length);
    expect(gunzipSync(raw.body).toString()).toBe(SCRIPT);
    for (const path of ['/app/assets/nothing.js', '/app/assets/..%2Findex.html', '/app/assets/']) {
      expect((await fetch(`${base}${path}`)).status, path).toBe(404);
    }
  });
});

describe('without a console configured', () => {
  it.each(['/app', '/app/', '/app/ws_1/today'])(
    '%s is a 404 that says the console is not configured',
    async (path) => {
      const server = createApp(createUnitTestDeps([])).listen(0);
      await new Promise((resolve) => server.once('listening', resolve));
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, {
        redirect: 'manual',
      });
      server.close();
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: unknown }).error).toMatchObject({
        code: 'NOT_FOUND',
        message: 'The operator console is not configured on this server.',
      });
    },
  );
});
