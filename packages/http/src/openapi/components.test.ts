import { SessionSchema } from '@travelops/domain/access';
import {
  BookingSchema,
  CheckInSchema,
  SetBookingStatusSchema,
  WaiverSchema,
} from '@travelops/domain/bookings';
import { TourSchema } from '@travelops/domain/catalog';
import { DateTimeSchema, PageQuerySchema } from '@travelops/domain/shared';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { apiRoutes } from '../routes/index.js';
import { componentNameOf, SCHEMA_NAMES } from './component-names.js';
import { collectComponents, PUBLISHED_INLINE } from './components.js';
import { buildOpenApiDocument, componentRootsOf } from './document.js';

const namesOf = (components: ReadonlyMap<string, unknown>) => [...components.keys()];

describe('component names', () => {
  it.each([
    ['TourSchema', 'Tour'],
    ['CreateTourSchema', 'TourCreate'],
    ['UpdateItineraryItemSchema', 'ItineraryItemUpdate'],
    ['ConvertLeadSchema', 'LeadConvert'],
    ['BookingCreateSchema', 'BookingCreate'],
    ['CreatorSchema', 'Creator'],
  ])('%s is published as %s', (exportName, name) => {
    expect(componentNameOf(exportName)).toBe(name);
  });

  it('keeps a name published before names were derived', () => {
    expect(SCHEMA_NAMES.get(SetBookingStatusSchema)).toBe('BookingStatusChange');
  });
});

describe('collectComponents', () => {
  it('publishes a named object at a root or nested, sorted by name, and leaves scalars and anonymous objects inline', () => {
    const body = v.object({ booking: BookingSchema, at: DateTimeSchema, x: v.object({}) });
    expect(namesOf(collectComponents({ referenced: [body, TourSchema], inlined: [] }))).toEqual([
      'Booking',
      'CancellationPolicy',
      'Participant',
      'TicketType',
      'Tour',
    ]);
  });

  it('reaches through optional, nullable, arrays and unions', () => {
    const body = v.union([v.optional(CheckInSchema), v.array(v.nullable(WaiverSchema))]);
    expect(namesOf(collectComponents({ referenced: [body], inlined: [] }))).toEqual(['CheckIn', 'Waiver']);
  });

  it('spells out the schema of a pipe and the roots of parameters, but not what they contain', () => {
    const piped = v.pipe(
      CheckInSchema,
      v.check(() => true),
    );
    const query = v.object({ nested: WaiverSchema });
    expect(namesOf(collectComponents({ referenced: [piped], inlined: [PageQuerySchema, query] }))).toEqual([
      'Waiver',
    ]);
  });

  it('keeps published-inline schemas inline', () => {
    expect(namesOf(collectComponents({ referenced: [SessionSchema], inlined: [] }))).toEqual([]);
  });

  it('lists in PUBLISHED_INLINE only schemas that the API would otherwise publish as components', () => {
    const roots = componentRootsOf(apiRoutes);
    const published = new Set(collectComponents(roots).values());
    const unlessInline = new Set(collectComponents(roots, new Set()).values());
    expect([...unlessInline].filter((schema) => !published.has(schema))).toEqual(
      expect.arrayContaining([...PUBLISHED_INLINE]),
    );
    expect(unlessInline.size - published.size).toBe(PUBLISHED_INLINE.size);
  });

  it('publishes every component the API document refers to, and no other', () => {
    const doc = buildOpenApiDocument(apiRoutes, { serverUrl: 'http://localhost' });
    const referenced = new Set(
      [...JSON.stringify(doc).matchAll(/"#\/components\/schemas\/(\w+)"/g)].map((match) => match[1]),
    );
    expect(Object.keys(doc.components.schemas).sort()).toEqual([...referenced].sort());
  });
});
