import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingsPath, getBooking } from '../support/booking-fixtures.js';
import { createDeparture, createTour, customerInput, type TestWorkspace } from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';

let t: TestApi;
let ws: TestWorkspace;
beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
});
afterAll(() => t.close());

/** Fields only operators may see; none may appear anywhere in a public answer. */
const OPERATOR_ONLY_KEYS = [
  'notes',
  'customerId',
  'paymentIntentId',
  'emergencyContact',
  'guideId',
  'driverId',
  'vehicleId',
  'bookedSeats',
  'heldSeats',
  'capacity',
  'workspaceId',
  'holderKey',
  'version',
  'externalReference',
  'availabilityId',
];

function keysAndValues(value: unknown, keys: Set<string> = new Set(), values: string[] = []) {
  if (Array.isArray(value)) for (const item of value) keysAndValues(item, keys, values);
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      keys.add(key);
      keysAndValues(inner, keys, values);
    }
  } else if (typeof value === 'string') values.push(value);
  return { keys, values };
}

describe('views by audience', () => {
  it('no public answer shows an operator-only field or value', async () => {
    const tour = await createTour(t, ws, { isPublic: true, slug: 'guest-views' });
    const departure = await createDeparture(t, ws, tour.id, { capacity: 9 });
    const member = await t.createMember(ws.workspaceId, 'OPERATIONS');
    const guide = await t.request('POST', `/workspaces/${ws.workspaceId}/guides`, {
      token: ws.token,
      body: { memberId: member.memberId, displayName: 'Gustav' },
    });
    expect(guide.status).toBe(201);
    const assigned = await t.request('PATCH', `/workspaces/${ws.workspaceId}/availability/${departure.id}`, {
      token: ws.token,
      body: { guideId: member.memberId },
    });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);

    const secretNote = 'VIP: owner is a friend of the boss';
    const emergency = 'Mother +4791234567';
    const created = await t.request('POST', `/public/${ws.slug}/bookings`, {
      body: {
        availabilityId: departure.id,
        customer: customerInput(),
        participants: [{ name: 'Greta', emergencyContact: emergency }, { name: 'Hans' }],
        notes: 'Guest note',
      },
    });
    expect(created.status).toBe(201);
    const token = created.body.data.publicToken;
    await t.request('PATCH', bookingsPath(ws, created.body.data.id), {
      token: ws.token,
      body: { notes: secretNote, externalReference: 'PARTNER-42' },
    });
    const operatorView = await getBooking(t, ws, created.body.data.id);

    const answers = [
      created,
      await t.request('GET', `/public/bookings/${token}`),
      await t.request('POST', `/public/bookings/${token}/waiver`, {
        body: { participantId: operatorView.participants[0].id, signedName: 'Greta', accepted: true },
      }),
      await t.request('POST', `/public/bookings/${token}/payment/retry`),
      await t.request('GET', `/public/${ws.slug}/tours/${tour.slug}/availability`),
      await t.request('GET', `/public/${ws.slug}/tours/${tour.slug}/calendar`),
      await t.request('GET', `/public/${ws.slug}/tours`),
      await t.request('GET', `/public/${ws.slug}/tours/${tour.slug}`),
    ];
    for (const res of answers) expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    const { keys, values } = keysAndValues(answers.map((res) => res.body));
    expect(OPERATOR_ONLY_KEYS.filter((key) => keys.has(key))).toEqual([]);
    for (const secret of [
      secretNote,
      emergency,
      'PARTNER-42',
      operatorView.customerId,
      operatorView.paymentIntentId,
      member.memberId,
      ws.workspaceId,
    ]) {
      expect(values.filter((value) => value.includes(secret))).toEqual([]);
    }
    // The guest still sees what they need: a masked hint that their contact is on file.
    const guestView = answers[1]?.body.data;
    expect(guestView.participants[0].emergencyContactHint).toBe('Mo••••67');
    expect(guestView.tour).toMatchObject({ id: tour.id, name: tour.name });
    const publicDeparture = answers[4]?.body.data[0];
    expect(publicDeparture).toMatchObject({
      id: departure.id,
      seatsRemaining: 7,
      status: 'SCHEDULED',
      salesStatus: 'AVAILABLE',
    });
  });

  it('each public answer is its own component in /openapi.json', async () => {
    const doc = (await t.request('GET', '/openapi.json')).body;
    const schemaOf = (path: string, method: string, status: string) =>
      doc.paths[path][method].responses[status].content['application/json'].schema;
    expect(JSON.stringify(schemaOf('/public/bookings/{publicToken}', 'get', '200'))).toContain(
      '#/components/schemas/PublicBooking',
    );
    expect(
      JSON.stringify(schemaOf('/public/{workspaceSlug}/tours/{tourSlug}/availability', 'get', '200')),
    ).toContain('#/components/schemas/PublicDeparture');
    expect(Object.keys(doc.components.schemas.PublicBooking.properties)).not.toContain('notes');
    for (const path of ['/public/{workspaceSlug}/tours', '/public/{workspaceSlug}/tours/{tourSlug}']) {
      expect(JSON.stringify(schemaOf(path, 'get', '200'))).toContain('#/components/schemas/PublicTour"');
    }
    expect(Object.keys(doc.components.schemas.PublicTour.properties)).not.toContain('capacity');
    expect(Object.keys(doc.components.schemas.PublicDeparture.properties)).toContain('seatsRemaining');
  });
});
