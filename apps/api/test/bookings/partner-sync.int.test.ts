import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { book, bookingsPath, countRows, getBooking, seatsOf } from '../support/booking-fixtures.js';
import { createDeparture, createTour, detail, expectError, type TestWorkspace } from '../support/fixtures.js';
import { startTestApi, type TestApi, type TestResponse } from '../support/harness.js';

let t: TestApi;
let ws: TestWorkspace;
let tour: any;
let departure: any;
beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
  tour = await createTour(t, ws, { capacity: 100 });
  departure = await createDeparture(t, ws, tour.id, { capacity: 100 });
});
afterAll(() => t.close());

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The feed lists a change about a second after its transaction (and every older one) ended. */
const SETTLE_MS = 1_300;

const list = (workspace: TestWorkspace, query: string) =>
  t.request('GET', `/workspaces/${workspace.workspaceId}/bookings?${query}`, { token: workspace.token });

const patch = (workspace: TestWorkspace, bookingId: string, body: unknown) =>
  t.request('PATCH', bookingsPath(workspace, bookingId), { token: workspace.token, body });

function ok200(res: TestResponse) {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe('externalReference', () => {
  it('is set on create, unique per workspace (409 already_exists), found by exact match', async () => {
    const small = await createDeparture(t, ws, tour.id, { capacity: 3 });
    const first = await book(t, ws, small.id, { externalReference: 'GYG-1001' });
    expect(first.externalReference).toBe('GYG-1001');
    const again = await t.request('POST', bookingsPath(ws), {
      token: ws.token,
      body: {
        availabilityId: small.id,
        customer: { name: 'Twin', email: 'twin@example.com' },
        participants: [{ name: 'Twin' }],
        externalReference: 'GYG-1001',
      },
    });
    expectError(again, 409, 'CONFLICT', [detail('externalReference', 'already_exists')]);
    // The refused booking took no seat and left nothing behind.
    expect(await seatsOf(t, ws, small)).toEqual({ bookedSeats: 1, seatsRemaining: 2 });
    expect(await countRows(t, 'bookings', { availability_id: small.id })).toBe(1);

    const other = await t.createWorkspace('ADMIN');
    const otherTour = await createTour(t, other);
    const otherDeparture = await createDeparture(t, other, otherTour.id);
    expect(
      (await book(t, other, otherDeparture.id, { externalReference: 'GYG-1001' })).externalReference,
    ).toBe('GYG-1001');

    const found = ok200(await list(ws, 'externalReference=GYG-1001'));
    expect(found.data.map((b: any) => b.id)).toEqual([first.id]);
    expect(ok200(await list(ws, 'externalReference=gyg-1001')).data).toEqual([]);
    expect(ok200(await list(ws, 'externalReference=GYG-100')).data).toEqual([]);
  });

  it('PATCH sets, moves and clears it; a reference another booking holds is 409', async () => {
    const a = await book(t, ws, departure.id, { externalReference: 'VIA-A' });
    const b = await book(t, ws, departure.id);
    expectError(await patch(ws, b.id, { externalReference: 'VIA-A' }), 409, 'CONFLICT', [
      detail('externalReference', 'already_exists'),
    ]);
    expect((await getBooking(t, ws, b.id)).externalReference).toBe(null);
    expect(ok200(await patch(ws, a.id, { externalReference: null })).data.externalReference).toBe(null);
    expect(ok200(await patch(ws, b.id, { externalReference: 'VIA-A' })).data.externalReference).toBe('VIA-A');
    expect(ok200(await list(ws, 'externalReference=VIA-A')).data.map((x: any) => x.id)).toEqual([b.id]);
  });

  it.each([
    ['a space', 'GYG 1'],
    ['too long', 'x'.repeat(101)],
    ['empty', ''],
  ])('a reference with %s is 400 on create and as a filter', async (_label, value) => {
    const res = await t.request('POST', bookingsPath(ws), {
      token: ws.token,
      body: {
        availabilityId: departure.id,
        customer: { name: 'Ref', email: 'ref@example.com' },
        participants: [{ name: 'Ref' }],
        externalReference: value,
      },
    });
    const fields = (r: TestResponse) => [...new Set(r.body.error.details.map((d: any) => d.field))];
    expect(res.status).toBe(400);
    expect(fields(res)).toEqual(['externalReference']);
    const filtered = await list(ws, `externalReference=${encodeURIComponent(value)}`);
    expect(filtered.status).toBe(400);
    expect(fields(filtered)).toEqual(['externalReference']);
  });
});

describe('listBookings with updatedSince (partner sync)', () => {
  it('lists changes oldest first, always with a cursor to resume from, and then only what changed since', async () => {
    const feed = await t.createWorkspace('ADMIN');
    const feedTour = await createTour(t, feed);
    const feedDeparture = await createDeparture(t, feed, feedTour.id);
    const since = new Date(Date.now() - 1_000).toISOString();
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await book(t, feed, feedDeparture.id));
    // Just written: not listed until the writers' transactions are surely over.
    const early = ok200(await list(feed, `updatedSince=${since}`));
    expect(early.data).toEqual([]);
    expect(early.pagination).toEqual({ hasMore: false, nextCursor: expect.any(String) });
    await pause(SETTLE_MS);

    const firstPage = ok200(await list(feed, `updatedSince=${since}&limit=2`));
    expect(firstPage.pagination.hasMore).toBe(true);
    const secondPage = ok200(
      await list(feed, `updatedSince=${since}&limit=2&cursor=${firstPage.pagination.nextCursor}`),
    );
    expect(secondPage.pagination).toEqual({ hasMore: false, nextCursor: expect.any(String) });
    const seen = [...firstPage.data, ...secondPage.data];
    const byChange = (x: any, y: any) =>
      x.updatedAt < y.updatedAt ? -1 : x.updatedAt > y.updatedAt ? 1 : x.id < y.id ? -1 : 1;
    expect(seen.map((b: any) => b.id)).toEqual([...made].sort(byChange).map((b) => b.id));
    expect(seen.map((b: any) => b.id).sort()).toEqual(made.map((b) => b.id).sort());

    // Nothing new: an empty page that still says where to resume.
    const resume = secondPage.pagination.nextCursor;
    const quiet = ok200(await list(feed, `updatedSince=${since}&cursor=${resume}`));
    expect(quiet).toEqual({ data: [], pagination: { hasMore: false, nextCursor: expect.any(String) } });

    const changed = ok200(await patch(feed, made[1].id, { notes: 'late change' })).data;
    await pause(SETTLE_MS);
    const next = ok200(await list(feed, `updatedSince=${since}&cursor=${quiet.pagination.nextCursor}`));
    expect(next.data).toEqual([changed]);
    // The same query with an offset instead of Z means the same instant.
    const offset = new Date(Date.parse(since) + 2 * 3_600_000).toISOString().replace('Z', '+02:00');
    const viaOffset = ok200(await list(feed, `updatedSince=${encodeURIComponent(offset)}`));
    expect(viaOffset.data.map((b: any) => b.id).sort()).toEqual(made.map((b) => b.id).sort());
    // Filters apply to the feed too.
    expect(ok200(await list(feed, `updatedSince=${since}&status=CONFIRMED`)).data).toEqual([]);
  });

  it.each([
    ['-createdAt', 400],
    ['startsAt', 400],
    ['-updatedAt', 400],
    ['updatedAt', 200],
  ])('with sort=%s the answer is %i: the feed has one order, oldest change first', async (sort, status) => {
    const res = await list(ws, `updatedSince=2020-01-01T00:00:00Z&sort=${sort}`);
    if (status === 200) expect(res.status).toBe(200);
    else expectError(res, 400, 'VALIDATION_ERROR', [detail('sort', 'conflicts_with_updated_since')]);
  });

  it.each([
    ['not a date', 'yesterday'],
    ['a date without time', '2026-01-01'],
    ['a day that does not exist', '2026-02-30T00:00:00Z'],
  ])('updatedSince %s is 400 on updatedSince', async (_label, value) => {
    const res = await list(ws, `updatedSince=${encodeURIComponent(value)}`);
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: any) => d.field)).toEqual(['updatedSince']);
  });

  it("a feed cursor does not continue a sorted list, and a list's cursor does not continue the feed", async () => {
    await book(t, ws, departure.id);
    await book(t, ws, departure.id);
    const listed = ok200(await list(ws, 'limit=1'));
    expectError(
      await list(ws, `updatedSince=2020-01-01T00:00:00Z&cursor=${listed.pagination.nextCursor}`),
      400,
      'VALIDATION_ERROR',
      [detail('cursor', 'invalid_cursor')],
    );
    const fed = ok200(await list(ws, 'updatedSince=2020-01-01T00:00:00Z&limit=1'));
    expectError(await list(ws, `cursor=${fed.pagination.nextCursor}`), 400, 'VALIDATION_ERROR', [
      detail('cursor', 'invalid_cursor'),
    ]);
  });
});

describe('the partner-sync cursor under concurrent writes', () => {
  it('a write that started first and commits last is not skipped; no change is listed twice', async () => {
    const feed = await t.createWorkspace('ADMIN');
    const feedTour = await createTour(t, feed, { capacity: 50 });
    const busy = await createDeparture(t, feed, feedTour.id, { capacity: 50 });
    const quietDeparture = await createDeparture(t, feed, feedTour.id, { capacity: 5 });
    const since = new Date(Date.now() - 1_000).toISOString();
    const bookings = [];
    for (let i = 0; i < 8; i++) bookings.push(await book(t, feed, busy.id));
    const slow = await book(t, feed, quietDeparture.id);

    // The partner polls the feed throughout, keeping its cursor.
    const seen: Array<{ id: string; updatedAt: string; notes: string | null }> = [];
    let cursor: string | null = null;
    const poll = async () => {
      for (;;) {
        const query: string = `updatedSince=${since}&limit=5${cursor ? `&cursor=${cursor}` : ''}`;
        const res = await t.request('GET', `/workspaces/${feed.workspaceId}/bookings?${query}`, {
          token: feed.token,
        });
        const body = ok200(res);
        for (const b of body.data) seen.push({ id: b.id, updatedAt: b.updatedAt, notes: b.notes });
        cursor = body.pagination.nextCursor;
        if (!body.pagination.hasMore) return;
      }
    };
    let polling = true;
    const poller = (async () => {
      while (polling) {
        await poll();
        await pause(50);
      }
    })();

    // The slow write: its request's transaction starts now (its updatedAt), then waits on a
    // row lock that the test holds while many other writes commit and the partner polls.
    const knex = t.api.database.knex;
    const release = await new Promise<() => Promise<void>>((resolveRelease, rejectRelease) => {
      knex
        .transaction(async (trx) => {
          await trx('bookings').where({ id: slow.id }).forUpdate().first();
          await new Promise<void>((done) => resolveRelease(async () => done()));
        })
        .catch(rejectRelease);
    });
    const slowWrite = patch(feed, slow.id, { notes: 'slow write' });
    await pause(300);
    const writes: Promise<TestResponse>[] = [];
    for (let wave = 0; wave < 6; wave++) {
      for (const [i, b] of bookings.entries()) writes.push(patch(feed, b.id, { notes: `wave ${wave} ${i}` }));
      await pause(150);
    }
    const answers = await Promise.all(writes);
    expect(answers.filter((r) => r.status !== 200).map((r) => r.body)).toEqual([]);
    await pause(SETTLE_MS);
    await release();
    const slowDone = await slowWrite;
    expect(slowDone.status, JSON.stringify(slowDone.body)).toBe(200);
    // The slow change is stamped before changes the partner may already hold the cursor past.
    const lastWave = await Promise.all(bookings.map((b) => getBooking(t, feed, b.id)));
    expect(lastWave.every((b) => b.updatedAt > slowDone.body.data.updatedAt)).toBe(true);

    await pause(SETTLE_MS);
    polling = false;
    await poller;
    await poll();

    // No repeat: each (booking, updatedAt) once; the feed's order never goes back.
    const keys = seen.map((s) => `${s.updatedAt} ${s.id}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect([...keys].sort()).toEqual(keys);
    // No skip: every booking's last change was listed, the slow one included.
    for (const b of [...lastWave, slowDone.body.data]) {
      expect(
        seen.some((s) => s.id === b.id && s.updatedAt === b.updatedAt && s.notes === b.notes),
        `${b.id} ${b.notes}`,
      ).toBe(true);
    }
    expect(seen.filter((s) => s.id === slow.id).map((s) => s.notes)).toContain('slow write');
  });
});
