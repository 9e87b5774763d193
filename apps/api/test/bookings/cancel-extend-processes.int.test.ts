import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createUnitOfWork } from '@travelops/db';
import { createTestDatabase } from '@travelops/db/testing';
import { describe, expect, it } from 'vitest';
import { tokenCreate, workspaceCreate } from '../../src/cli/commands.js';
import { customerInput } from '../support/fixtures.js';
import { testRedisEnv } from '../support/harness.js';
import { freePort, startBuiltServer } from '../support/processes.js';

describe('guest cancels and hold extends across two API processes sharing one database', () => {
  it('65 concurrent requests: each booking is cancelled once, refunded once, and seats stay exact', async () => {
    const db = await createTestDatabase();
    const cwd = await mkdtemp(join(tmpdir(), 'travelops-cancel-extend-'));
    const servers: Awaited<ReturnType<typeof startBuiltServer>>[] = [];
    try {
      const deps = { uow: createUnitOfWork(db.database.knex), clock: { now: () => new Date() } };
      const workspace = await workspaceCreate(deps, { slug: 'cancel-extend', name: 'Cancel and extend' });
      if (!workspace.ok) throw new Error(workspace.error.message);
      const { workspaceId } = workspace.value;
      const token = await tokenCreate(deps, { workspace: workspaceId, role: 'ADMIN', name: 'race' });
      if (!token.ok) throw new Error(token.error.message);

      const ports = [await freePort(), await freePort()] as const;
      const redisEnv = testRedisEnv();
      for (const port of ports) {
        servers.push(await startBuiltServer({ PORT: String(port), DATABASE_URL: db.url, ...redisEnv }, cwd));
      }
      const call = async (port: number, method: string, path: string, body?: unknown) => {
        const res = await fetch(`http://127.0.0.1:${port}${path}`, {
          method,
          headers: { Authorization: `Bearer ${token.value.token}`, 'Content-Type': 'application/json' },
          ...(body !== undefined && { body: JSON.stringify(body) }),
        });
        return { status: res.status, body: (await res.json()) as any };
      };
      const [portA, portB] = ports;
      const capacity = 80;
      const tour = await call(portA, 'POST', `/workspaces/${workspaceId}/tours`, {
        name: 'Two-process cancels',
        durationMinutes: 60,
        basePrice: 1000,
        currency: 'EUR',
        capacity,
        cancellationPolicy: { cutoffHours: 24, refund: 'PARTIAL', refundPercent: 50 },
      });
      expect(tour.status, JSON.stringify(tour.body)).toBe(201);
      const departure = await call(portB, 'POST', `/workspaces/${workspaceId}/availability`, {
        tourId: tour.body.data.id,
        startsAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      });
      expect(departure.status, JSON.stringify(departure.body)).toBe(201);
      const availabilityId = departure.body.data.id;

      // 25 bookings of 1-3 guests; every other one paid, so its guest cancel refunds half.
      const bookings: any[] = [];
      for (let i = 0; i < 25; i++) {
        const created = await call(i % 2 ? portB : portA, 'POST', `/workspaces/${workspaceId}/bookings`, {
          availabilityId,
          customer: customerInput(),
          participants: Array.from({ length: 1 + (i % 3) }, (_, n) => ({ name: `Guest ${n + 1}` })),
        });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        if (i % 2 === 0) {
          const paid = await fetch(created.body.data.checkoutUrl, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ outcome: 'succeeded' }),
          });
          expect(paid.status).toBe(200);
        }
        bookings.push(created.body.data);
      }

      // The first 15 are cancelled by their guest twice (once through each process) and
      // extended; the other 10 are only extended (through both processes).
      const requests: Array<{
        bookingId: string;
        kind: 'cancel' | 'extend';
        send: () => ReturnType<typeof call>;
      }> = [];
      for (const [i, booking] of bookings.entries()) {
        if (i < 15) {
          for (const port of ports) {
            requests.push({
              bookingId: booking.id,
              kind: 'cancel',
              send: () => call(port, 'POST', `/public/bookings/${booking.publicToken}/cancel`),
            });
          }
        }
        for (const port of i < 15 ? [i % 2 ? portA : portB] : ports) {
          requests.push({
            bookingId: booking.id,
            kind: 'extend',
            send: () =>
              call(port, 'POST', `/workspaces/${workspaceId}/bookings/${booking.id}/extend`, { minutes: 10 }),
          });
        }
      }
      expect(requests.length).toBe(65);
      const answers = await Promise.all(requests.map(async (r) => ({ ...r, res: await r.send() })));

      const unexpected = answers.filter(
        ({ kind, res }) =>
          ![200, 422].includes(res.status) ||
          (kind === 'cancel' && res.status === 422 && res.body.error.details[0].issue !== 'invalid_state'),
      );
      expect(
        unexpected.map((a) => `${a.kind} ${a.bookingId}: ${a.res.status} ${JSON.stringify(a.res.body)}`),
      ).toEqual([]);
      const knex = db.database.knex;
      for (const [i, booking] of bookings.entries()) {
        const cancels = answers.filter((a) => a.bookingId === booking.id && a.kind === 'cancel');
        const row = await knex('bookings').where({ id: booking.id }).first();
        const refunds = await knex('payments').where({ booking_id: booking.id, kind: 'REFUND' });
        if (i < 15) {
          expect(cancels.map((a) => a.res.status).sort()).toEqual([200, 422]);
          expect(row.status).toBe('CANCELLED');
          // Paid ones (even i) get half back, once; unpaid ones nothing.
          expect(refunds.map((r) => Number(r.amount))).toEqual(i % 2 === 0 ? [booking.totalAmount / 2] : []);
        } else {
          expect(row.status).toBe(i % 2 === 0 ? 'CONFIRMED' : 'PENDING');
          expect(refunds).toEqual([]);
        }
      }
      const departureRow = await knex('availability').where({ id: availabilityId }).first();
      const [held] = await knex('bookings')
        .where({ availability_id: availabilityId })
        .whereNot({ status: 'CANCELLED' })
        .select(knex.raw('coalesce(sum(participant_count), 0)::int as seats'));
      expect(departureRow.booked_seats).toBe(held.seats);
      for (const port of ports) {
        const shown = await call(
          port,
          'GET',
          `/workspaces/${workspaceId}/availability?tourId=${tour.body.data.id}`,
        );
        const [d] = shown.body.data;
        expect(d.seatsRemaining + d.bookedSeats).toBe(capacity);
        expect(d.bookedSeats).toBe(held.seats);
      }
    } finally {
      const codes = await Promise.all(servers.map((server) => server.stop()));
      await db.drop();
      await rm(cwd, { recursive: true, force: true });
      expect(codes, JSON.stringify(servers.map((s) => s.output().stderr))).toEqual(servers.map(() => 0));
    }
  });
});
