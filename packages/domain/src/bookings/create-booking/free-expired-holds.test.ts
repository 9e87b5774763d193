import { describe, expect, it } from 'vitest';
import type { DepartureForBooking } from '../../catalog/index.js';
import { aBooking, aRead, NOW, recordingStores } from '../test-fixtures.js';
import { NO_SUCH_DEPARTURE } from './find-departure.js';
import { decideSaleFreeingExpiredHolds, hasExpiredHolds } from './free-expired-holds.js';

const clock = { now: () => NOW };
const one = { participants: [{ name: 'Ada' }] };
const lapsed = aBooking({ id: 'bkg_lapsed', status: 'PENDING', participantCount: 1 });

/** Stores where the departure has `expired` lapsed holds, and reads `fresh` once they are released. */
const storesWith = (expired: number, fresh: DepartureForBooking | null) =>
  recordingStores({
    'bookings.findExpiredHolds': () => Array.from({ length: expired }, () => lapsed),
    'bookings.lock': () => lapsed,
    'departures.adjustBookedSeats': () => ({ ok: true, value: {} }),
    'bookings.update': () => ({ ...lapsed, status: 'CANCELLED' }),
    'departures.findForBooking': () => fresh,
  });

describe('decideSaleFreeingExpiredHolds', () => {
  it('room as read: the sale, decided on that read, and nothing else read', async () => {
    const read = aRead();
    const { stores, names } = storesWith(1, null);
    const decided = await decideSaleFreeingExpiredHolds(stores, clock, 'ws_1', read, one, NOW);
    expect(decided.ok && decided.value.read).toBe(read);
    expect(names()).toEqual([]);
  });

  it('full as read, no lapsed hold on it: 409 at once', async () => {
    const { stores, names } = storesWith(0, null);
    const decided = await decideSaleFreeingExpiredHolds(
      stores,
      clock,
      'ws_1',
      aRead({ seatsRemaining: 0 }),
      one,
      NOW,
    );
    expect(decided.ok ? null : decided.error.code).toBe('CONFLICT');
    expect(names()).toEqual(['bookings.findExpiredHolds']);
  });

  it('refused for another reason than room: never looks for holds', async () => {
    const { stores, names } = storesWith(1, null);
    const decided = await decideSaleFreeingExpiredHolds(
      stores,
      clock,
      'ws_1',
      aRead({ status: 'CANCELLED', seatsRemaining: 0 }),
      one,
      NOW,
    );
    expect(decided.ok ? null : decided.error.code).toBe('UNPROCESSABLE');
    expect(names()).toEqual([]);
  });
});

describe('decideSaleFreeingExpiredHolds, with lapsed holds on a full departure', () => {
  it('full with lapsed holds: locks the departure, releases them, decides again on a fresh read', async () => {
    const fresh = aRead({ seatsRemaining: 1 }, {}, 8);
    const { stores, names } = storesWith(1, fresh);
    const decided = await decideSaleFreeingExpiredHolds(
      stores,
      clock,
      'ws_1',
      aRead({ seatsRemaining: 0 }),
      one,
      NOW,
    );
    expect(decided.ok && decided.value.read.version).toBe(8);
    const calls = names();
    expect(calls.slice(0, 3)).toEqual([
      'bookings.findExpiredHolds',
      'departures.lock',
      'bookings.findExpiredHolds',
    ]);
    expect(calls).toContain('departures.adjustBookedSeats');
    expect(calls.at(-1)).toBe('departures.findForBooking');
  });

  it('full again after the release: 409; gone meanwhile: 422 not_found', async () => {
    const full = await decideSaleFreeingExpiredHolds(
      storesWith(1, aRead({ seatsRemaining: 0 })).stores,
      clock,
      'ws_1',
      aRead({ seatsRemaining: 0 }),
      one,
      NOW,
    );
    expect(full.ok ? null : full.error.code).toBe('CONFLICT');
    const gone = await decideSaleFreeingExpiredHolds(
      storesWith(1, null).stores,
      clock,
      'ws_1',
      aRead({ seatsRemaining: 0 }),
      one,
      NOW,
    );
    expect(gone).toEqual({ ok: false, error: NO_SUCH_DEPARTURE });
  });
});

describe('hasExpiredHolds', () => {
  it("asks for one lapsed hold of the departure, at the caller's now", async () => {
    const { stores, calls } = storesWith(1, null);
    expect(await hasExpiredHolds(stores, NOW, 'ws_1', 'avl_1')).toBe(true);
    expect(calls).toEqual([
      {
        call: 'bookings.findExpiredHolds',
        args: [NOW, { workspaceId: 'ws_1', availabilityId: 'avl_1', limit: 1 }],
      },
    ]);
  });
});
