import { randomUUID } from 'node:crypto';
import { createUnitOfWork } from '@travelops/db';
import { createJobs, type Job } from '@travelops/jobs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { book, bookingsPath, setStatus } from '../support/booking-fixtures.js';
import {
  createDeparture,
  createTour,
  detail,
  expectError,
  fromNow,
  type TestWorkspace,
} from '../support/fixtures.js';
import { startTestApi, type TestApi, unique } from '../support/harness.js';
import { mailWorker } from '../support/mail-fixtures.js';

// Decisions §13: a customer's export, their erasure and the retention limit.

const systemClock = { now: () => new Date() };

let t: TestApi;
let ws: TestWorkspace;
beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
});
afterAll(() => t.close());

const customerPath = (id: string, suffix = '', workspace = ws) =>
  `/workspaces/${workspace.workspaceId}/customers/${id}${suffix}`;

let people = 0;

/** A customer with everything the service can hold about them; the values to look for afterwards. */
async function personWithHistory(workspace: TestWorkspace = ws) {
  const tag = unique('p').replace(/[^a-z0-9]/gi, '');
  const person = {
    name: `Ada Lovelace ${tag}`,
    email: `ada.${tag}@example.com`,
    phone: `+44 20 7946 ${1000 + ++people}`,
    companion: `Charles Babbage ${tag}`,
    contact: `Lord Byron ${tag} +44 7700 900123`,
  };
  const tour = await createTour(t, workspace);
  const past = await createDeparture(t, workspace, tour.id, { startsAt: fromNow(3), capacity: 10 });
  const upcoming = await createDeparture(t, workspace, tour.id, { startsAt: fromNow(20), capacity: 10 });
  const customer = { name: person.name, email: person.email, phone: person.phone };
  const participants = [
    { name: person.name, dietaryNotes: 'no shellfish', emergencyContact: person.contact },
    { name: person.companion, accessibilityNotes: 'cane' },
  ];
  // With an Idempotency-Key: the answer, which shows the customer, is kept for 24 hours.
  const created = await t.request('POST', bookingsPath(workspace), {
    token: workspace.token,
    headers: { 'Idempotency-Key': randomUUID() },
    body: {
      availabilityId: past.id,
      customer,
      participants,
      paymentMode: 'MANUAL',
      notes: `${person.name} asked for a window seat`,
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const first = created.body.data;
  // Confirmed with an e-mail to the guest, which the worker keeps (no SMTP).
  expect((await setStatus(t, workspace, first.id, 'CONFIRMED', { notifyCustomer: true })).status).toBe(200);
  const second = await book(t, workspace, upcoming.id, {
    customer,
    participants: [{ name: person.companion }],
    paymentMode: 'MANUAL',
  });
  const mail = mailWorker(t, systemClock, { smtpUrl: null });
  await mail.deliver();
  mail.close();
  const knex = t.api.database.knex;
  // The first departure is now over (moved into the past, as time would), the guest wrote a message.
  const startedAt = new Date(Date.now() - 40 * 86_400_000).toISOString();
  await knex('availability').where({ id: past.id }).update({ starts_at: startedAt, booking_cutoff_at: null });
  await knex('bookings')
    .where({ id: first.id })
    .update({ starts_at: startedAt, guest_message: `Hi, ${person.name} here, see you` });

  const note = await t.request('POST', customerPath(first.customerId, '/notes', workspace), {
    token: workspace.token,
    body: { body: `${person.name} is allergic to shellfish; call ${person.phone}` },
  });
  expect(note.status).toBe(201);
  const task = await t.request('POST', `/workspaces/${workspace.workspaceId}/crm-tasks`, {
    token: workspace.token,
    body: {
      title: `Call ${person.name} back`,
      description: `at ${person.email}`,
      customerId: first.customerId,
    },
  });
  expect(task.status).toBe(201);
  // A lead with their e-mail (in another case), never converted: the same person.
  const lead = await t.request('POST', `/workspaces/${workspace.workspaceId}/leads`, {
    token: workspace.token,
    body: { name: person.name, email: person.email.toUpperCase(), phone: person.phone },
  });
  expect(lead.status).toBe(201);
  return { person, customerId: first.customerId as string, first, second, past, upcoming };
}

/** Every text, varchar, array and jsonb column of every table where any value appears, as `table.column`. */
async function whereFound(values: string[]): Promise<string[]> {
  const knex = t.api.database.knex;
  const columns: { table_name: string; column_name: string }[] = await knex('information_schema.columns')
    .join('information_schema.tables', function () {
      this.on('tables.table_name', 'columns.table_name').andOn('tables.table_schema', 'columns.table_schema');
    })
    .where('columns.table_schema', 'public')
    .where('tables.table_type', 'BASE TABLE')
    .whereIn('columns.data_type', ['text', 'character varying', 'character', 'jsonb', 'json', 'ARRAY'])
    .select('columns.table_name', 'columns.column_name');
  expect(columns.length).toBeGreaterThan(100);
  const found: string[] = [];
  for (const { table_name, column_name } of columns) {
    for (const value of values) {
      const [row] = await knex(table_name)
        .whereRaw('??::text ilike ?', [column_name, `%${value}%`])
        .count({ n: '*' });
      if (Number(row?.n) > 0) found.push(`${table_name}.${column_name}: ${value}`);
    }
  }
  return found;
}

describe('GET .../customers/{id}/export', () => {
  it('answers everything held: customer, consents, bookings with participants, e-mails, notes, tasks', async () => {
    const { person, customerId, first, second } = await personWithHistory();
    const res = await t.request('GET', customerPath(customerId, '/export'), { token: ws.token });
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.customer).toMatchObject({
      id: customerId,
      name: person.name,
      email: person.email,
      phone: person.phone,
    });
    expect(data.erasedAt).toBeNull();
    expect(data.consents).toEqual({ marketingConsent: false, guestEmailOptOuts: [] });
    expect(data.bookings.map((b: { id: string }) => b.id)).toEqual([first.id, second.id]);
    expect(data.bookings[0].participants.map((p: { name: string }) => p.name)).toEqual([
      person.name,
      person.companion,
    ]);
    expect(data.bookings[0].participants[0]).toMatchObject({
      dietaryNotes: 'no shellfish',
      emergencyContact: person.contact,
    });
    expect(data.bookings[0].guestMessage).toContain(person.name);
    expect(data.guestEmails.length).toBeGreaterThan(0);
    expect(data.guestEmails[0]).toMatchObject({
      bookingId: first.id,
      recipient: person.email,
      status: 'KEPT',
    });
    expect(data.notes.map((n: { body: string }) => n.body)).toEqual([expect.stringContaining(person.name)]);
    expect(data.tasks.map((task: { title: string }) => task.title)).toEqual([`Call ${person.name} back`]);
    expect(data.leads.map((lead: { name: string }) => lead.name)).toEqual([person.name]);
    expect(data).toMatchObject({ itineraries: [], resellerContacts: [] });
  });

  it('ADMIN only (403 for OPERATIONS and READ_ONLY), 404 for a customer of another workspace', async () => {
    const { customerId } = await personWithHistory();
    for (const role of ['OPERATIONS', 'READ_ONLY'] as const) {
      const { token } = await t.createToken(ws.workspaceId, role);
      const exported = await t.request('GET', customerPath(customerId, '/export'), { token });
      expectError(exported, 403, 'FORBIDDEN');
      const erased = await t.request('POST', customerPath(customerId, '/erase'), { token, body: {} });
      expectError(erased, 403, 'FORBIDDEN');
    }
    const other = await t.createWorkspace('ADMIN');
    const foreign = await t.request('GET', customerPath(customerId, '/export', other), {
      token: other.token,
    });
    expectError(foreign, 404, 'NOT_FOUND');
    const bad = await t.request('POST', customerPath(customerId, '/erase'), {
      token: ws.token,
      body: { cancelUpcoming: 'yes' },
    });
    expectError(bad, 400, 'VALIDATION_ERROR', [detail('cancelUpcoming', expect.any(String))]);
  });
});

describe('POST .../customers/{id}/erase', () => {
  it('refuses with 422 naming the upcoming bookings; with cancelUpcoming, cancels them, releases the seats, and no erased value is left in any column of any table', async () => {
    const { person, customerId, first, second, upcoming } = await personWithHistory();
    const knex = t.api.database.knex;
    const values = [person.name, person.email, person.phone, person.companion, person.contact];
    expect((await whereFound(values)).length).toBeGreaterThan(5);

    const refused = await t.request('POST', customerPath(customerId, '/erase'), { token: ws.token });
    expectError(refused, 422, 'UNPROCESSABLE', [detail('cancelUpcoming', 'upcoming_bookings')]);
    expect(refused.body.error.message).toContain(second.id);
    expect(refused.body.error.message).not.toContain(first.id);

    const before = await t.request('GET', customerPath(customerId), { token: ws.token });
    const erased = await t.request('POST', customerPath(customerId, '/erase'), {
      token: ws.token,
      body: { cancelUpcoming: true },
    });
    expect(erased.status).toBe(200);
    expect(erased.body.data).toMatchObject({
      customerId,
      alreadyErased: false,
      cancelledBookingIds: [second.id],
      rewritten: expect.objectContaining({ customers: 1, bookings: 2, customer_notes: 1, leads: 1 }),
    });

    expect(await whereFound(values)).toEqual([]);

    // What reports and invariants read stays: amounts, dates, statuses, seats.
    const after = await t.request('GET', customerPath(customerId), { token: ws.token });
    expect(after.body.data).toMatchObject({
      name: 'Erased customer',
      email: `${customerId.toLowerCase()}@erased.invalid`,
      phone: null,
      marketingConsent: false,
      lifetimeValue: before.body.data.lifetimeValue,
    });
    const kept = await t.request('GET', bookingsPath(ws, first.id), { token: ws.token });
    expect(kept.body.data).toMatchObject({
      status: 'CONFIRMED',
      totalAmount: first.totalAmount,
      participantCount: 2,
      notes: null,
      guestMessage: null,
    });
    expect(kept.body.data.participants.map((p: { name: string }) => p.name)).toEqual([
      'Participant 1',
      'Participant 2',
    ]);
    const cancelled = await t.request('GET', bookingsPath(ws, second.id), { token: ws.token });
    expect(cancelled.body.data.status).toBe('CANCELLED');
    const departure = await knex('availability').where({ id: upcoming.id }).first('booked_seats');
    expect(departure.booked_seats).toBe(0);
    // No e-mail waits for the neutral address.
    expect(
      await knex('guest_emails').where({ status: 'PENDING' }).whereIn('booking_id', [first.id, second.id]),
    ).toEqual([]);

    // Again: nothing to do.
    const again = await t.request('POST', customerPath(customerId, '/erase'), { token: ws.token, body: {} });
    expect(again.body.data).toMatchObject({ alreadyErased: true, erasedAt: erased.body.data.erasedAt });
    const exported = await t.request('GET', customerPath(customerId, '/export'), { token: ws.token });
    expect(exported.body.data.erasedAt).toBe(erased.body.data.erasedAt);
  }, 60_000);

  it('an unknown customer is 404', async () => {
    const res = await t.request('POST', customerPath('cus_unknown', '/erase'), { token: ws.token, body: {} });
    expectError(res, 404, 'NOT_FOUND');
  });
});

describe('customerRetentionMonths (worker job)', () => {
  it('erases the customers whose last departure is older, keeps the others, and logs each one', async () => {
    const own = await t.createWorkspace('ADMIN');
    const knex = t.api.database.knex;
    const old = await personWithHistory(own);
    const recent = await personWithHistory(own);
    // The first one's departures are 14 months old; the second still has one 40 days ago.
    const longAgo = new Date(Date.now() - 14 * 31 * 86_400_000).toISOString();
    await knex('bookings')
      .where({ customer_id: old.customerId })
      .update({ starts_at: longAgo, status: 'COMPLETED' });
    await knex('customers').where({ workspace_id: own.workspaceId }).update({ created_at: longAgo });
    await knex('bookings')
      .where({ customer_id: recent.customerId, id: recent.second.id })
      .update({ status: 'CANCELLED' });

    const job = (() => {
      const jobs = createJobs(
        {
          uow: createUnitOfWork(knex),
          clock: systemClock,
          logger: {
            info: (fields: object, msg?: string) =>
              void t.logs.push(JSON.stringify({ level: 'info', msg, ...fields })),
            warn: () => {},
            error: () => {},
          },
        },
        { allowPrivateWebhookUrls: true },
      );
      return jobs.find((candidate) => candidate.name === 'erase-customers-past-retention') as Job;
    })();

    // Off by default: nothing happens.
    await job.run(new AbortController().signal);
    expect((await knex('customers').where({ id: old.customerId }).first()).erased_at).toBeNull();

    await knex('workspaces').where({ id: own.workspaceId }).update({ customer_retention_months: 12 });
    await job.run(new AbortController().signal);

    const oldRow = await knex('customers').where({ id: old.customerId }).first();
    expect(oldRow).toMatchObject({ name: 'Erased customer', phone: null });
    expect(oldRow.erased_at).not.toBeNull();
    const recentRow = await knex('customers').where({ id: recent.customerId }).first();
    expect(recentRow).toMatchObject({ name: recent.person.name, erased_at: null });
    const line = t.logs.map((l) => JSON.parse(l)).find((l) => l.job === 'erase-customers-past-retention');
    expect(line).toMatchObject({ workspaceId: own.workspaceId, customerId: old.customerId });
    const { person } = old;
    expect(await whereFound([person.name, person.email, person.companion, person.contact])).toEqual([]);
  }, 60_000);
});
