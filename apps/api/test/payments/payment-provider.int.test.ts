import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeparture, createTour, expectError, type TestWorkspace } from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';
import { apiDir } from '../support/processes.js';

/** Starts the API from source as `pnpm start` would run it, and waits for it to exit. */
function startServerFromSource(env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      ['--conditions=source', '--import', import.meta.resolve('tsx'), join(apiDir, 'src', 'server.ts')],
      { cwd: apiDir, env: { PATH: process.env.PATH ?? '', ...env } },
    );
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('production refuses to start without a payment provider', () => {
  it('NODE_ENV=production and no PAYMENT_PROVIDER: exit 1, naming the key', async () => {
    const { code, output } = await startServerFromSource({ NODE_ENV: 'production', PORT: '0' });
    expect(code).toBe(1);
    expect(output).toContain('the API could not start');
    expect(output).toContain('PAYMENT_PROVIDER: is required when NODE_ENV=production');
  }, 30_000);

  it('PAYMENT_PROVIDER=stripe without its secrets: exit 1, naming both', async () => {
    const { code, output } = await startServerFromSource({
      NODE_ENV: 'production',
      PAYMENT_PROVIDER: 'stripe',
      PORT: '0',
    });
    expect(code).toBe(1);
    expect(output).toContain('STRIPE_SECRET_KEY: is required when PAYMENT_PROVIDER=stripe');
    expect(output).toContain('STRIPE_WEBHOOK_SECRET: is required when PAYMENT_PROVIDER=stripe');
  }, 30_000);
});

describe('the sandbox, the default outside production', () => {
  let t: TestApi;
  let ws: TestWorkspace;
  let departure: any;
  beforeAll(async () => {
    t = await startTestApi();
    ws = await t.createWorkspace('ADMIN');
    const tour = await createTour(t, ws, { isPublic: true, basePrice: 1_000 });
    departure = await createDeparture(t, ws, tour.id);
  });
  afterAll(() => t.close());

  it('GET /pay/{token} answers 303 to the sandbox page of the same session', async () => {
    const res = await t.request('POST', `/public/${ws.slug}/bookings`, {
      body: {
        availabilityId: departure.id,
        customer: { name: 'Ada', email: 'ada.sandbox@example.com' },
        participants: [{ name: 'Ada' }],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const token = /\/sandbox\/pay\/(\w+)$/.exec(res.body.data.checkoutUrl)?.[1];
    const pay = await fetch(`${t.baseUrl}/pay/${token}`, { redirect: 'manual' });
    expect(pay.status).toBe(303);
    expect(pay.headers.get('location')).toBe(`http://localhost:3000/sandbox/pay/${token}`);
    expect(pay.headers.get('cache-control')).toBe('no-store');
  });

  it('serves no Stripe webhook endpoint, and documents the sandbox', async () => {
    expectError(await t.request('POST', '/stripe/webhooks', { body: {} }), 404, 'NOT_FOUND');
    const doc = await t.request('GET', '/openapi.json');
    expect(doc.body.paths['/stripe/webhooks']).toBeUndefined();
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(['/sandbox/pay/{token}', '/pay/{token}', '/pay/{token}/done']),
    );
  });
});
