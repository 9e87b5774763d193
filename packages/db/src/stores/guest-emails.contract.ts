import type { OutboxEvent } from '@travelops/domain/events';
import type { NewGuestEmail } from '@travelops/domain/notifications';
import { newId } from '@travelops/domain/shared';
import type { Knex } from 'knex';
import { beforeEach, describe, expect, it } from 'vitest';
import { createStores } from '../unit-of-work.js';
import {
  type BookingScene,
  type ContractDatabase,
  newBooking,
  newBookingScene,
} from './contract-fixtures.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const plus = (at: Date, ms: number) => new Date(at.getTime() + ms);

/** Guest e-mails: requests taken once, messages de-duplicated, claims leased and rate-bounded; in `describeStoreContract`. */
export function describeGuestEmailStoreContract(database: () => ContractDatabase): void {
  const knex = (): Knex => database().knex;
  const store = () => createStores(knex()).guestEmails;

  const message = (
    scene: BookingScene,
    bookingId: string,
    overrides: Partial<NewGuestEmail> = {},
  ): NewGuestEmail => ({
    id: newId('guestEmail'),
    workspaceId: scene.workspaceId,
    bookingId,
    kind: 'booking_confirmed',
    dedupeKey: newId('event'),
    recipient: 'ada@example.com',
    status: 'PENDING',
    fromName: 'Fjord Tours',
    replyTo: null,
    subject: 'Your booking',
    text: 'Hello',
    html: '<p>Hello</p>',
    headers: {},
    attachments: [],
    ...overrides,
  });

  describe('guest e-mails', () => {
    // Claims and scans see the whole database: each test starts with nothing due.
    beforeEach(async () => {
      await knex()('guest_emails').where({ status: 'PENDING' }).update({ status: 'FAILED' });
      await knex()('outbox_events').whereNull('mailed_at').update({ mailed_at: knex().fn.now() });
    });

    it('writes a message once per dedupe key and recipient, and reads it back whole', async () => {
      const scene = await newBookingScene(knex());
      const booking = await newBooking(knex(), scene);
      const first = message(scene, booking.id, {
        headers: { 'List-Unsubscribe': '<https://x.example/u>' },
        attachments: [{ filename: 'booking.ics', contentType: 'text/calendar', content: 'BEGIN:VCALENDAR' }],
      });
      expect(await store().insert([first])).toBe(1);
      expect(await store().insert([{ ...first, id: newId('guestEmail') }])).toBe(0);
      expect(
        await store().insert([{ ...first, id: newId('guestEmail'), recipient: 'bob@example.com' }]),
      ).toBe(1);
      const read = await store().findById(first.id);
      expect(read).toMatchObject({
        ...first,
        attempts: 0,
        lastAttemptAt: null,
        sentAt: null,
        nextAttemptAt: expect.any(String),
      });
      expect((await store().listRecent(500)).map((email) => email.id)).toContain(first.id);
    });

    it('takes each requested event once: a second taker skips the locked ones, and marked ones are gone', async () => {
      const scene = await newBookingScene(knex());
      const event: OutboxEvent = {
        id: newId('event'),
        type: 'notification.email_requested',
        createdAt: new Date().toISOString(),
        workspaceId: scene.workspaceId,
        data: { template: 'booking_confirmed', bookingId: 'bkg_x', customerId: 'cus_x' },
      };
      await createStores(knex()).outbox.append(event, 'bkg_x');
      await createStores(knex()).outbox.append(
        { ...event, id: newId('event'), type: 'booking.created' },
        'bkg_x',
      );
      await knex().transaction(async (trx) => {
        const taken = await createStores(trx).guestEmails.takeRequests(10);
        expect(taken).toEqual([event]);
        // PGlite has one connection: a second session would wait for this one.
        if (database().concurrentSessions) expect(await store().takeRequests(10)).toEqual([]);
        await createStores(trx).guestEmails.markRequestsPlanned([event.id]);
      });
      expect(await store().takeRequests(10)).toEqual([]);
    });

    it('claims due messages under a lease, oldest first per booking, and records only the next attempt', async () => {
      const scene = await newBookingScene(knex());
      const booking = await newBooking(knex(), scene);
      const [first, second] = [message(scene, booking.id), message(scene, booking.id)];
      await store().insert([first, second].filter((m) => m !== undefined));
      const now = plus(new Date(), 1_000);
      const claim = { limit: 10, leaseMs: MINUTE, perWorkspacePerMinute: 100 };
      // The second waits while the first (same booking) is PENDING.
      expect((await store().claimDue(now, claim)).map((email) => email.id)).toEqual([first.id]);
      expect(await store().claimDue(now, claim)).toEqual([]);
      // A lease that ran out lets another worker take it again.
      expect((await store().claimDue(plus(now, 2 * MINUTE), claim)).map((email) => email.id)).toEqual([
        first.id,
      ]);
      await store().recordAttempt(first.id, {
        status: 'SENT',
        attempts: 1,
        nextAttemptAt: null,
        lastError: null,
        sentAt: now,
      });
      // The worker that lost its lease records attempt 1 too: ignored.
      await store().recordAttempt(first.id, {
        status: 'PENDING',
        attempts: 1,
        nextAttemptAt: now,
        lastError: 'late',
        sentAt: null,
      });
      expect(await store().findById(first.id)).toMatchObject({
        status: 'SENT',
        attempts: 1,
        lastError: null,
      });
      expect((await store().claimDue(plus(now, 3 * MINUTE), claim)).map((email) => email.id)).toEqual([
        second.id,
      ]);
    });

    it('starts at most perWorkspacePerMinute attempts per workspace in 60 s; another workspace is not held back', async () => {
      const busy = await newBookingScene(knex());
      const quiet = await newBookingScene(knex());
      const busyMessages = [];
      for (let i = 0; i < 5; i++) busyMessages.push(message(busy, (await newBooking(knex(), busy)).id));
      await store().insert(busyMessages);
      const quietMessage = message(quiet, (await newBooking(knex(), quiet)).id);
      await store().insert([quietMessage]);
      const now = plus(new Date(), 1_000);
      const claim = { limit: 10, leaseMs: 10 * MINUTE, perWorkspacePerMinute: 2 };
      const claimed = await store().claimDue(now, claim);
      expect(claimed.filter((email) => email.workspaceId === busy.workspaceId)).toHaveLength(2);
      expect(claimed.filter((email) => email.workspaceId === quiet.workspaceId)).toHaveLength(1);
      expect(await store().claimDue(plus(now, 30_000), claim)).toEqual([]);
      expect(await store().claimDue(plus(now, 61_000), claim)).toHaveLength(2);
    });

    it('concurrent claims take disjoint messages', async () => {
      const scene = await newBookingScene(knex());
      const messages = [];
      for (let i = 0; i < 6; i++) messages.push(message(scene, (await newBooking(knex(), scene)).id));
      await store().insert(messages);
      const now = plus(new Date(), 1_000);
      const claim = { limit: 4, leaseMs: MINUTE, perWorkspacePerMinute: 100 };
      const [a, b] = await Promise.all([store().claimDue(now, claim), store().claimDue(now, claim)]);
      const ids = [...(a ?? []), ...(b ?? [])].map((email) => email.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.sort()).toEqual(messages.map((m) => m.id).sort());
    });

    it('finds a confirmed booking inside its tour reminder window once, not after its reminder or an opt-out', async () => {
      const now = new Date();
      const scene = await newBookingScene(knex(), plus(now, 3 * HOUR).toISOString());
      const due = await newBooking(knex(), scene, {
        status: 'CONFIRMED',
        confirmedAt: plus(now, -2 * 24 * HOUR).toISOString(),
      });
      const late = await newBooking(knex(), scene, { status: 'CONFIRMED', confirmedAt: now.toISOString() });
      const pending = await newBooking(knex(), scene);
      const optedOut = await newBooking(knex(), scene, {
        status: 'CONFIRMED',
        confirmedAt: plus(now, -2 * 24 * HOUR).toISOString(),
      });
      await store().optOutOfReminders(scene.workspaceId, optedOut.id);
      await store().optOutOfReminders(scene.workspaceId, optedOut.id);
      const found = (await store().findReminderCandidates(now, 100)).filter(
        (c) => c.workspaceId === scene.workspaceId,
      );
      expect(found).toEqual([{ workspaceId: scene.workspaceId, bookingId: due.id }]);
      expect(found.map((c) => c.bookingId)).not.toContain(late.id);
      expect(found.map((c) => c.bookingId)).not.toContain(pending.id);
      // The key the domain writes (reminderKey) is the one the scan looks for.
      await store().insert([
        message(scene, due.id, {
          kind: 'departure_reminder',
          dedupeKey: `reminder:${due.id}:${Date.parse(scene.startsAt)}`,
        }),
      ]);
      expect(
        (await store().findReminderCandidates(now, 100)).filter((c) => c.workspaceId === scene.workspaceId),
      ).toEqual([]);
      // A tour without reminders has none.
      await knex()('tours').where({ id: scene.tourId }).update({ reminder_hours_before: null });
      await knex()('guest_emails').where({ booking_id: due.id }).del();
      expect(
        (await store().findReminderCandidates(now, 100)).filter((c) => c.workspaceId === scene.workspaceId),
      ).toEqual([]);
    });

    it('finds unpaid public holds about to lapse that have held long enough, until warned', async () => {
      const now = new Date();
      const scene = await newBookingScene(knex(), plus(now, 48 * HOUR).toISOString());
      const created = await newBooking(knex(), scene, {
        holderKey: 'hmac',
        expiresAt: plus(now, 3 * MINUTE).toISOString(),
      });
      await knex()('bookings')
        .where({ id: created.id })
        .update({ created_at: plus(now, -12 * MINUTE) });
      const fresh = await newBooking(knex(), scene, {
        holderKey: 'hmac',
        expiresAt: plus(now, 3 * MINUTE).toISOString(),
      });
      const api = await newBooking(knex(), scene, { expiresAt: plus(now, 3 * MINUTE).toISOString() });
      await knex()('bookings')
        .where({ id: api.id })
        .update({ created_at: plus(now, -12 * MINUTE) });
      const mine = async () =>
        (await store().findHoldWarningCandidates(now, 5 * MINUTE, 100)).filter(
          (c) => c.workspaceId === scene.workspaceId,
        );
      expect(await mine()).toEqual([{ workspaceId: scene.workspaceId, bookingId: created.id }]);
      expect((await mine()).map((c) => c.bookingId)).not.toContain(fresh.id);
      await store().insert([
        message(scene, created.id, { kind: 'hold_expiring', dedupeKey: `hold_expiring:${created.id}` }),
      ]);
      expect(await mine()).toEqual([]);
    });
  });
}
