import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, runBuiltCli, runCli, startBuiltServer } from '../support/processes.js';

// The newcomer's path: no DATABASE_URL, no REDIS_URL; embedded PGlite under ./.data/.
let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'travelops-embedded-'));
});
afterAll(() => rm(cwd, { recursive: true, force: true }));

describe('embedded mode (PGlite, in-process stores)', () => {
  it('starts on an empty machine, seeds a demo workspace with a working token, and keeps data across restarts', async () => {
    // Port 3000 taken by something else: the start fails naming PORT, and shows no token it would lose.
    const squatter = createServer();
    const taken = await new Promise<number>((resolve) =>
      squatter.listen(0, () => resolve((squatter.address() as { port: number }).port)),
    );
    const refused = await startBuiltServer({ PORT: String(taken) }, cwd).then(
      () => 'started',
      (error: Error) => error.message,
    );
    squatter.close();
    expect(refused).toMatch(/server exited with 1/);
    expect(refused).toContain(`PORT: ${taken} is in use`);
    expect(refused).not.toMatch(/tops_|Demo workspace/);

    const port = await freePort();
    const env = { PORT: String(port) };
    const first = await startBuiltServer(env, cwd);
    const base = `http://127.0.0.1:${port}`;
    const { stdout, stderr } = first.output();
    expect(stdout).toContain('REDIS_URL is unset: using in-process stores');
    expect(stdout).toContain('"database":"pglite"');
    const token = /\b(tops_[A-Za-z0-9]+)\b/.exec(stderr)?.[1];
    const workspaceId = /Demo workspace (ws_[A-Za-z0-9]+)/.exec(stderr)?.[1];
    expect(token).toBeDefined();
    expect(workspaceId).toBeDefined();
    // The secret is shown to the person at the terminal once, never written to the JSON log.
    expect(stdout).not.toContain(token);

    const ready = await fetch(`${base}/readyz`);
    expect(await ready.json()).toEqual({ data: { status: 'ready', checks: { database: 'ok' } } });
    const auth = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const tours = (await (
      await fetch(`${base}/workspaces/${workspaceId}/tours`, { headers: auth })
    ).json()) as {
      data: Array<{ slug: string }>;
    };
    expect(tours.data.map((tour) => tour.slug)).toContain('old-town-walk');
    const created = await fetch(`${base}/workspaces/${workspaceId}/customers`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: 'Persisted Person', email: 'persist@example.com' }),
    });
    expect(created.status).toBe(201);
    const customerId = ((await created.json()) as { data: { id: string } }).data.id;

    // Bookings on PGlite: seat lock, idempotency key (advisory lock), sandbox payment.
    const departures = (await (
      await fetch(`${base}/workspaces/${workspaceId}/availability?limit=1`, { headers: auth })
    ).json()) as { data: Array<{ id: string }> };
    const book = () =>
      fetch(`${base}/workspaces/${workspaceId}/bookings`, {
        method: 'POST',
        headers: { ...auth, 'Idempotency-Key': '7b0f5a8e-2c1d-4e5f-9a6b-0c1d2e3f4a5b' },
        body: JSON.stringify({
          availabilityId: departures.data[0]?.id,
          customer: { name: 'Embedded Guest', email: 'guest@example.com' },
          participants: [{ name: 'Embedded Guest' }],
        }),
      });
    const booked = await book();
    expect(booked.status).toBe(201);
    const booking = ((await booked.json()) as { data: { id: string; status: string; checkoutUrl: string } })
      .data;
    expect(booking.status).toBe('PENDING');
    const replay = await book();
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(((await replay.json()) as { data: { id: string } }).data.id).toBe(booking.id);
    const paid = await fetch(booking.checkoutUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ outcome: 'succeeded' }),
    });
    expect(((await paid.json()) as { data: { booking: { status: string } } }).data.booking.status).toBe(
      'CONFIRMED',
    );

    // One process owns the data directory, and serves it to the CLI on a loopback port it
    // records there (decisions §11): the CLI, built, as `npm run cli` runs it, works beside it.
    const served = JSON.parse(await readFile(join(cwd, '.data', 'pglite.server.json'), 'utf8'));
    expect(served.url).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
    const started = Date.now();
    const beside = await runBuiltCli(
      ['token:create', '--workspace', 'demo', '--role', 'ADMIN', '--name', 'beside', '--json'],
      cwd,
    );
    const took = Date.now() - started;
    expect(beside.code, beside.stderr).toBe(0);
    // Under 2 s on an idle machine; the bound leaves room for a loaded one.
    expect(took).toBeLessThan(5_000);
    const besideToken = JSON.parse(beside.stdout) as { token: string; workspaceId: string };
    expect(besideToken.workspaceId).toBe(workspaceId);
    const withIt = await fetch(`${base}/workspaces/${workspaceId}/tours`, {
      headers: { Authorization: `Bearer ${besideToken.token}` },
    });
    expect(withIt.status).toBe(200);
    // The API's own work goes on after the CLI left.
    expect(
      (await fetch(`${base}/workspaces/${workspaceId}/customers/${customerId}`, { headers: auth })).status,
    ).toBe(200);

    expect(await first.stop()).toBe(0);
    await expect(readFile(join(cwd, '.data', 'pglite.server.json'), 'utf8')).rejects.toThrow(/ENOENT/);

    // With the API stopped, the CLI works on the same directory.
    const issued = await runCli(
      ['token:create', '--workspace', 'demo', '--role', 'READ_ONLY', '--name', 'cli', '--json'],
      {},
      cwd,
    );
    expect(issued.code).toBe(0);
    const cliToken = JSON.parse(issued.stdout) as { token: string; workspaceId: string; role: string };
    expect(cliToken).toMatchObject({ workspaceId, role: 'READ_ONLY' });

    const second = await startBuiltServer(env, cwd);
    expect(second.output().stderr).not.toContain('Demo workspace');
    const again = await fetch(`${base}/workspaces/${workspaceId}/customers/${customerId}`, {
      headers: { Authorization: `Bearer ${cliToken.token}` },
    });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { data: { email: string } }).data.email).toBe('persist@example.com');
    expect(await second.stop()).toBe(0);
  }, 120_000);

  it('a bad variable stops the start with one line naming it, and no stack trace', async () => {
    const port = await freePort();
    const failed = await startBuiltServer({ PORT: String(port), TRUST_PROXY: 'banana' }, cwd).then(
      () => 'started',
      (error: Error) => error.message,
    );
    expect(failed).toMatch(/server exited with 1/);
    expect(failed).toContain('TravelOps API could not start. Invalid environment: TRUST_PROXY: must be');
    expect(failed).not.toMatch(/\n\s+at /);
  });
});
