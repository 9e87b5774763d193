import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  book,
  bookingsPath,
  confirmedBooking,
  participants,
  setStatus,
} from '../support/booking-fixtures.js';
import {
  createDeparture,
  createTour,
  customerInput,
  expectError,
  type TestWorkspace,
  UNKNOWN_IDS,
} from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';
import { must } from '../support/operations-fixtures.js';

let t: TestApi;
let ws: TestWorkspace;
let tour: any;
let departure: any;
let hostile: any;
let hold: any;

const manifestPath = (availabilityId: string, workspace: TestWorkspace = ws) =>
  `/workspaces/${workspace.workspaceId}/availability/${availabilityId}/manifest`;

const getManifest = async (availabilityId: string = departure.id) =>
  must('manifest', await t.request('GET', manifestPath(availabilityId), { token: ws.token }), 200);

const getCsv = (accept = 'text/csv', availabilityId: string = departure.id) =>
  t.request('GET', manifestPath(availabilityId), { token: ws.token, headers: { Accept: accept } });

/** RFC 4180 as a spreadsheet reads it: quoted cells may hold commas, quotes ("") and line breaks; records end in CRLF. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) throw new Error('the last record does not end in CRLF');
  return rows;
}

beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
  tour = await createTour(t, ws, {
    name: 'Night Walk',
    slug: 'night-walk',
    capacity: 10,
    timeZone: 'Europe/Berlin',
    meetingPoint: 'Old Bridge',
    ticketTypes: [
      { name: 'Adult', ageBand: 'ADULT', price: 3000 },
      { name: 'Child', ageBand: 'CHILD', price: 1500, requiresAdult: true },
    ],
  });
  // 19:30 in Berlin (CET).
  departure = await createDeparture(t, ws, tour.id, { startsAt: '2031-03-14T19:30:00+01:00' });
  hostile = await confirmedBooking(t, ws, departure.id, {
    customer: customerInput({ name: '=1+1', phone: '+44 20 7946 0000' }),
    participants: [
      { name: '-2+3', ageBand: 'ADULT', dietaryNotes: 'line 1\nline 2', emergencyContact: '@SUM(A1)' },
      { name: 'Quote "me", please', ageBand: 'CHILD', accessibilityNotes: 'wheelchair, ramp' },
    ],
    notes: '\t=cmd|calc',
  });
  // A hold (PENDING) is on the manifest too; a cancelled booking is not.
  hold = await book(t, ws, departure.id, { customer: customerInput({ name: 'Bea Holder' }) });
  const cancelled = await book(t, ws, departure.id, {
    paymentMode: 'MANUAL',
    customer: customerInput({ name: 'Carl Cancelled' }),
  });
  must('cancel', await setStatus(t, ws, cancelled.id, 'CANCELLED'), 200);
  // Another departure's booking stays off this manifest.
  const other = await createDeparture(t, ws, tour.id, { startsAt: '2031-03-15T19:30:00+01:00' });
  await book(t, ws, other.id, { paymentMode: 'MANUAL', customer: customerInput({ name: 'Olga Other' }) });
});
afterAll(() => t.close());

describe('getDepartureManifest (JSON)', () => {
  it('the departure with its salesStatus, the tour, counts by ticket type, totals and every booking not CANCELLED', async () => {
    const manifest = await getManifest();
    expect(manifest.departure).toMatchObject({
      id: departure.id,
      startsAt: '2031-03-14T18:30:00.000Z',
      seatsRemaining: 7,
      salesStatus: 'AVAILABLE',
    });
    expect(manifest.tour).toEqual({
      id: tour.id,
      slug: 'night-walk',
      name: 'Night Walk',
      timeZone: 'Europe/Berlin',
      meetingPoint: 'Old Bridge',
    });
    const [adult, child] = tour.ticketTypes;
    expect(manifest.counts).toEqual([
      { ticketTypeId: adult.id, name: 'Adult', count: 2 },
      { ticketTypeId: child.id, name: 'Child', count: 1 },
    ]);
    expect(manifest.totals).toEqual({ bookings: 2, participants: 3, checkedIn: 0 });
    expect(manifest.bookings.map((b: any) => [b.id, b.status])).toEqual([
      [hostile.id, 'CONFIRMED'],
      [hold.id, 'PENDING'],
    ]);
  });

  it("each booking shows its customer's contact and its participants' details, as they were sent", async () => {
    const [first] = (await getManifest()).bookings;
    expect(first).toEqual({
      id: hostile.id,
      status: 'CONFIRMED',
      paymentStatus: 'UNPAID',
      externalReference: null,
      notes: '\t=cmd|calc',
      guestMessage: null,
      customer: {
        id: hostile.customerId,
        name: '=1+1',
        email: expect.stringContaining('@example.com'),
        phone: '+44 20 7946 0000',
      },
      participants: [
        {
          id: hostile.participants[0].id,
          name: '-2+3',
          ticketTypeId: tour.ticketTypes[0].id,
          ticketTypeName: 'Adult',
          ageBand: 'ADULT',
          waiverSigned: false,
          checkedInAt: null,
          dietaryNotes: 'line 1\nline 2',
          accessibilityNotes: null,
          emergencyContact: '@SUM(A1)',
        },
        {
          id: hostile.participants[1].id,
          name: 'Quote "me", please',
          ticketTypeId: tour.ticketTypes[1].id,
          ticketTypeName: 'Child',
          ageBand: 'CHILD',
          waiverSigned: false,
          checkedInAt: null,
          dietaryNotes: null,
          accessibilityNotes: 'wheelchair, ramp',
          emergencyContact: null,
        },
      ],
    });
  });

  it('JSON is the default: no Accept, */*, application/json, or a type the route does not make; Vary: Accept', async () => {
    for (const accept of [
      undefined,
      '*/*',
      'application/json',
      'text/html',
      'application/json, text/csv;q=0.5',
    ]) {
      const res = await t.request('GET', manifestPath(departure.id), {
        token: ws.token,
        ...(accept && { headers: { Accept: accept } }),
      });
      expect(res.status, accept).toBe(200);
      expect(res.headers.get('content-type'), accept).toMatch(/^application\/json/);
      expect(res.headers.get('vary'), accept).toMatch(/Accept/);
      expect(res.body.data.departure.id).toBe(departure.id);
    }
  });

  it('a tour without ticket types counts everyone as Standard (ticketTypeId null)', async () => {
    const plain = await createTour(t, ws, { name: 'Plain Walk' });
    const plainDeparture = await createDeparture(t, ws, plain.id);
    await book(t, ws, plainDeparture.id, { paymentMode: 'MANUAL', participants: participants(2) });
    const manifest = await getManifest(plainDeparture.id);
    expect(manifest.counts).toEqual([{ ticketTypeId: null, name: 'Standard', count: 2 }]);
    expect(manifest.bookings[0].participants.map((p: any) => [p.ticketTypeId, p.ticketTypeName])).toEqual([
      [null, 'Standard'],
      [null, 'Standard'],
    ]);
  });

  it('an empty departure has an empty manifest, every ticket type at zero', async () => {
    const empty = await createDeparture(t, ws, tour.id);
    const manifest = await getManifest(empty.id);
    expect(manifest.bookings).toEqual([]);
    expect(manifest.counts.map((c: any) => c.count)).toEqual([0, 0]);
    expect(manifest.totals).toEqual({ bookings: 0, participants: 0, checkedIn: 0 });
  });

  it('an unknown departure is 404, in JSON even when CSV was asked for', async () => {
    expectError(
      await t.request('GET', manifestPath(UNKNOWN_IDS.availability), { token: ws.token }),
      404,
      'NOT_FOUND',
    );
    const asCsv = await getCsv('text/csv', UNKNOWN_IDS.availability);
    expectError(asCsv, 404, 'NOT_FOUND');
    expect(asCsv.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it("another workspace's departure is 404 and shows nothing of it", async () => {
    const other = await t.createWorkspace('ADMIN');
    const res = await t.request('GET', manifestPath(departure.id, other), { token: other.token });
    expectError(res, 404, 'NOT_FOUND');
    expect(JSON.stringify(res.body)).not.toContain('=1+1');
  });
});

describe('getDepartureManifest (CSV, Accept: text/csv)', () => {
  it('RFC 4180: text/csv in UTF-8, a download named after the tour and the local start, CRLF records, a header row', async () => {
    const res = await getCsv();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      'attachment; filename="manifest-night-walk-2031-03-14-1930.csv"',
    );
    expect(res.headers.get('vary')).toMatch(/Accept/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = res.body as string;
    expect(text.endsWith('\r\n')).toBe(true);
    const rows = parseCsv(text);
    expect(rows[0]).toEqual([
      'bookingId',
      'bookingStatus',
      'paymentStatus',
      'externalReference',
      'customerName',
      'customerEmail',
      'customerPhone',
      'participantId',
      'participantName',
      'ticketTypeId',
      'ticketType',
      'ageBand',
      'waiverSigned',
      'checkedInAt',
      'dietaryNotes',
      'accessibilityNotes',
      'emergencyContact',
      'bookingNotes',
      'guestMessage',
    ]);
    // One row per participant: two for the first booking, one for the hold.
    expect(rows.slice(1).map((row) => [row[0], row[8]])).toEqual([
      [hostile.id, "'-2+3"],
      [hostile.id, 'Quote "me", please'],
      [hold.id, 'Guest 1'],
    ]);
    expect(rows.every((row) => row.length === 19)).toBe(true);
  });

  it('hostile cells: formulas get a leading quote, quotes are doubled, commas and line breaks stay in their cell', async () => {
    const text = (await getCsv()).body as string;
    const [header, first, second] = parseCsv(text) as [string[], string[], string[]];
    const cell = (row: string[], column: string) => row[header.indexOf(column)];
    expect(cell(first, 'customerName')).toBe("'=1+1");
    expect(cell(first, 'customerPhone')).toBe("'+44 20 7946 0000");
    expect(cell(first, 'participantName')).toBe("'-2+3");
    expect(cell(first, 'emergencyContact')).toBe("'@SUM(A1)");
    expect(cell(first, 'bookingNotes')).toBe("'\t=cmd|calc");
    expect(cell(first, 'dietaryNotes')).toBe('line 1\nline 2');
    expect(cell(second, 'participantName')).toBe('Quote "me", please');
    expect(cell(second, 'accessibilityNotes')).toBe('wheelchair, ramp');
    expect(cell(second, 'ticketType')).toBe('Child');
    // On the wire: every cell quoted, no cell starting a formula.
    expect(text).toContain(`"'=1+1"`);
    expect(text).toContain('"Quote ""me"", please"');
    expect(text).toContain('"line 1\nline 2"');
    for (const row of parseCsv(text)) {
      for (const value of row) expect(value).not.toMatch(/^[=+\-@\t\r]/);
    }
  });

  it('CSV wins when Accept prefers it', async () => {
    const res = await getCsv('application/json;q=0.5, text/csv');
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  });
});

describe('check-in from the manifest', () => {
  it("checking in one participant by the manifest's id shows on the manifest, JSON and CSV", async () => {
    const before = await getManifest();
    const booking = before.bookings.find((b: any) => b.id === hostile.id);
    const [firstParticipant, secondParticipant] = booking.participants;
    const checked = must(
      'checkin',
      await t.request('POST', bookingsPath(ws, booking.id, '/checkin'), {
        token: ws.token,
        body: { participantIds: [firstParticipant.id] },
      }),
      200,
    );
    expect(checked.participants.map((p: any) => p.checkedInAt !== null)).toEqual([true, false]);
    const after = await getManifest();
    const participantsAfter = after.bookings.find((b: any) => b.id === hostile.id).participants;
    expect(participantsAfter.find((p: any) => p.id === firstParticipant.id).checkedInAt).toBe(
      checked.participants[0].checkedInAt,
    );
    expect(participantsAfter.find((p: any) => p.id === secondParticipant.id).checkedInAt).toBeNull();
    expect(after.totals.checkedIn).toBe(1);
    const rows = parseCsv((await getCsv()).body as string);
    const header = rows[0] as string[];
    const row = rows.find((r) => r[header.indexOf('participantId')] === firstParticipant.id) as string[];
    expect(row[header.indexOf('checkedInAt')]).toBe(checked.participants[0].checkedInAt);
  });

  it("a hold on the manifest cannot check in yet: 422, and the manifest's ids are refused on another booking", async () => {
    const manifest = await getManifest();
    const pending = manifest.bookings.find((b: any) => b.id === hold.id);
    expectError(
      await t.request('POST', bookingsPath(ws, hold.id, '/checkin'), {
        token: ws.token,
        body: { participantIds: [pending.participants[0].id] },
      }),
      422,
      'UNPROCESSABLE',
    );
    expectError(
      await t.request('POST', bookingsPath(ws, hostile.id, '/checkin'), {
        token: ws.token,
        body: { participantIds: [pending.participants[0].id] },
      }),
      422,
      'UNPROCESSABLE',
      [{ field: 'participantIds[0]', issue: 'unknown_participant' }],
    );
  });
});

describe('/openapi.json', () => {
  it('documents the manifest: its JSON schema, the text/csv alternative of the same operation, and its headers', async () => {
    const doc = await t.request('GET', '/openapi.json');
    expect(doc.status).toBe(200);
    const operation = doc.body.paths['/workspaces/{workspaceId}/availability/{availabilityId}/manifest'].get;
    expect(operation.operationId).toBe('getDepartureManifest');
    expect(operation['x-required-permission']).toBe('read');
    const ok = operation.responses['200'];
    expect(Object.keys(ok.content)).toEqual(['application/json', 'text/csv']);
    expect(ok.content['application/json'].schema.properties.data).toEqual({
      $ref: '#/components/schemas/DepartureManifest',
    });
    expect(ok.content['text/csv'].schema.type).toBe('string');
    expect(ok.content['text/csv'].example).toMatch(/^"bookingId",/);
    expect(ok.headers).toHaveProperty('Content-Disposition');
    expect(operation.description).toMatch(/OWASP/);
    expect(operation.responses).toHaveProperty('404');
  });
});
