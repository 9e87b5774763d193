import { ID_PREFIXES } from '@travelops/domain/shared';
import * as v from 'valibot';
import { SCHEMA_NAMES } from './component-names.js';

/**
 * Examples for /openapi.json, made from the very valibot schemas that validate requests and
 * shape answers: the walk below follows the schema, and picks a value a reader recognises for
 * well-known field names. Each example is checked against its schema in the tests
 * (examples.test.ts), and Redocly checks it against the published JSON Schema.
 */

type Owner = string | undefined;
/** An optional field the example leaves out (it would contradict the rest of it). */
const OMIT = Symbol('omit');
type Sample = string | number | boolean | null | readonly unknown[] | Record<string, unknown> | typeof OMIT;

const WHEN = '2026-07-01T09:00:00.000Z';
const LATER = '2026-07-01T11:00:00.000Z';
const CREATED = '2026-06-02T14:31:07.120Z';
const DAY = '2026-07-01';

/** A fixed id with the kind's prefix: the shape a client sees, never a real record. */
const id = (kind: keyof typeof ID_PREFIXES) => `${ID_PREFIXES[kind]}_4Xk9TzQ2mB7rW1pLs8YvNc`;

/** The id kind of a component's own `id`, and of `<kind>Id` fields. */
const ID_KIND_OF: Record<string, keyof typeof ID_PREFIXES> = {
  Availability: 'availability',
  BlackoutDate: 'blackoutDate',
  Booking: 'booking',
  BookingHistoryEntry: 'history',
  Company: 'company',
  CrmTask: 'crmTask',
  Customer: 'customer',
  CustomerNote: 'customerNote',
  Guide: 'member',
  Incident: 'incident',
  Itinerary: 'itinerary',
  ItineraryItem: 'itineraryItem',
  Lead: 'lead',
  Member: 'member',
  Participant: 'participant',
  PublicTour: 'tour',
  TimeOff: 'timeOff',
  Tour: 'tour',
  Vehicle: 'vehicle',
  Vendor: 'vendor',
  WebhookDelivery: 'webhookDelivery',
  WebhookEndpoint: 'webhookEndpoint',
  WebhookEndpointWithSecret: 'webhookEndpoint',
  ApiKey: 'apiToken',
  ApiKeyWithSecret: 'apiToken',
};

const ID_FIELDS: Record<string, keyof typeof ID_PREFIXES> = {
  availabilityId: 'availability',
  bookingId: 'booking',
  customerId: 'customer',
  tourId: 'tour',
  workspaceId: 'workspace',
  memberId: 'member',
  companyId: 'company',
  leadId: 'lead',
  assigneeId: 'member',
  ownerId: 'member',
  guideId: 'member',
  driverId: 'member',
  vehicleId: 'vehicle',
  vendorId: 'vendor',
  participantId: 'participant',
  endpointId: 'webhookEndpoint',
  eventId: 'event',
  itineraryId: 'itinerary',
  incidentId: 'incident',
  tokenId: 'apiToken',
  sessionId: 'session',
  paymentId: 'payment',
  paymentIntentId: 'paymentSession',
  convertedCustomerId: 'customer',
  apiKeyId: 'apiToken',
  blackoutDateId: 'blackoutDate',
  deliveryId: 'webhookDelivery',
  itemId: 'itineraryItem',
  taskId: 'crmTask',
  timeOffId: 'timeOff',
  noteId: 'customerNote',
};

/** Values by field name; `Owner.field` wins over `field`. Each must pass the field's schema. */
const SAMPLES: Record<string, Sample> = {
  name: 'Ada Lovelace',
  'Tour.name': 'Old Town Walking Tour',
  'PublicTour.name': 'Old Town Walking Tour',
  'TourCreate.name': 'Old Town Walking Tour',
  'TourUpdate.name': 'Old Town Walking Tour',
  'TourAddOn.name': 'Lunch box',
  'BookingAddOn.name': 'Lunch box',
  'Company.name': 'Harbour Travel Ltd',
  'CompanyCreate.name': 'Harbour Travel Ltd',
  'CompanyUpdate.name': 'Harbour Travel Ltd',
  'Vendor.name': 'Bay Coaches',
  'VendorCreate.name': 'Bay Coaches',
  'VendorUpdate.name': 'Bay Coaches',
  'Vehicle.name': 'Minibus 1',
  'VehicleCreate.name': 'Minibus 1',
  'VehicleUpdate.name': 'Minibus 1',
  'ApiKey.name': 'Channel manager',
  'ApiKeyWithSecret.name': 'Channel manager',
  'ApiKeyCreate.name': 'Channel manager',
  signedName: 'Ada Lovelace',
  travellerName: 'Ada Lovelace',
  dietaryNotes: 'Vegetarian',
  accessibilityNotes: 'Step-free access, please',
  emergencyContact: 'Charles Babbage, +44 20 7946 0000',
  'AddOnInput.id': 'lunch-box',
  'BookingAddOn.id': 'lunch-box',
  'TourAddOn.id': 'lunch-box',
  'TourCreate.addOns.id': 'lunch-box',
  'TourUpdate.addOns.id': 'lunch-box',
  'BookingHistoryEntry.actor.id': id('apiToken'),
  'CustomerNote.author.id': id('apiToken'),
  'TimelineEntry.id': id('booking'),
  'TimelineEntry.summary': 'Booked 2 seats on Old Town Walking Tour',
  participantIds: [id('participant')],
  bookingStatus: 'CONFIRMED',
  eventType: 'booking.confirmed',
  disabledReason: null,
  summary: 'Harbour walk, then lunch by the water',
  displayName: 'Grace Hopper',
  contactName: 'Grace Hopper',
  email: 'ada@example.com',
  password: 'correct horse battery staple',
  // Two-factor sign-in: six digits of the authenticator app, or one recovery code.
  code: '492039',
  recoveryCode: 'k7m2p-x9qrt',
  phone: '+44 20 7946 0958',
  slug: 'old-town-walk',
  description: 'Two hours through the old town with a local guide.',
  title: 'Call back about the school trip',
  'Itinerary.title': 'Three days on the coast',
  'ItineraryCreate.title': 'Three days on the coast',
  'ItineraryUpdate.title': 'Three days on the coast',
  'ItineraryItem.title': 'Harbour walk',
  'ItineraryItemCreate.title': 'Harbour walk',
  'ItineraryItemUpdate.title': 'Harbour walk',
  'Incident.title': 'Coach delayed by 30 minutes',
  'IncidentCreate.title': 'Coach delayed by 30 minutes',
  'IncidentUpdate.title': 'Coach delayed by 30 minutes',
  notes: 'Two vegetarians in the group.',
  guestMessage: 'Could you meet us at the hotel?',
  body: 'Prefers morning departures.',
  reason: 'Guest asked to cancel',
  'TimeOffCreate.reason': 'Annual leave',
  'TimeOff.reason': 'Annual leave',
  'BlackoutDateCreate.reason': 'City marathon',
  'BlackoutDate.reason': 'City marathon',
  cancellationReason: null,
  meetingPoint: 'Fountain, Main Square',
  location: 'Harbour, pier 3',
  currency: 'EUR',
  basePrice: 2500,
  price: 900,
  unitPrice: 900,
  totalAmount: 5000,
  amount: 5000,
  amountPaid: 0,
  amountRefunded: 0,
  lifetimeValue: 5000,
  estimatedValue: 120000,
  capacity: 15,
  seats: 16,
  seatsRemaining: 13,
  bookedSeats: 2,
  participantCount: 2,
  quantity: 2,
  durationMinutes: 120,
  depositPercent: 20,
  reminderHoursBefore: 24,
  totalBookings: 1,
  attempts: 1,
  lastStatusCode: 204,
  overlapHours: 24,
  expiresInDays: 90,
  tags: ['vip'],
  languages: ['en', 'fr'],
  certifications: ['First aid'],
  events: ['booking.confirmed', 'booking.cancelled'],
  url: 'https://receiver.example.com/travelops/webhooks',
  checkoutUrl: 'https://api.travelops.example/sandbox/pay/9fJ2kL0qRzX8vB3nM5sT7wYc1dH4gK6a',
  // A CHECKOUT booking has a checkout URL; a payment link comes with PAYMENT_LINK only.
  paymentLinkUrl: OMIT,
  'PaymentLink.url': 'https://api.travelops.example/sandbox/pay/9fJ2kL0qRzX8vB3nM5sT7wYc1dH4gK6a',
  domain: 'harbour-travel.example',
  addressLine1: '1 Quay Street',
  addressLine2: 'Floor 2',
  city: 'Bristol',
  region: 'England',
  postalCode: 'BS1 4DJ',
  country: 'GB',
  registration: 'AB12 CDE',
  source: 'Website form',
  reportedBy: 'Grace Hopper',
  operatorNotes: 'Confirm the table for 12.',
  secret: 'whsec_2mB7rW1pLs8YvNc4Xk9TzQ',
  'ApiKeyWithSecret.secret': 'tops_4Xk9TzQ2mB7rW1pLs8YvNc2mB7rW1pLs8YvN',
  prefix: 'tops_4Xk9TzQ',
  publicToken: 'pt_9fJ2kL0qRzX8vB3nM5sT7wYc1dH4gK6a',
  csrfToken: 'csrf_4Xk9TzQ2mB7rW1pLs8YvNc',
  lastError: null,
  requestId: 'req_4Xk9TzQ2mB7rW1pLs8YvNc',
  nextCursor: null,
  hasMore: false,
  isPublic: true,
  enabled: true,
  accepted: true,
  marketingConsent: true,
  notifyCustomer: true,
  waiverSigned: false,
  signedOut: true,
  deleted: true,
  isGuide: true,
  status: 'PENDING',
  'Availability.status': 'SCHEDULED',
  'AvailabilityCreate.status': 'SCHEDULED',
  'AvailabilityUpdate.status': 'DELAYED',
  'BookingStatusChange.status': 'CANCELLED',
  'BookingStatusChange.reason': 'Guest asked to cancel',
  'WebhookDelivery.status': 'SUCCEEDED',
  startsAt: WHEN,
  endsAt: LATER,
  bookingCutoffAt: '2026-07-01T08:00:00.000Z',
  dueAt: WHEN,
  occurredAt: WHEN,
  expiresAt: '2026-06-02T15:01:07.120Z',
  confirmedAt: null,
  cancelledAt: null,
  checkedInAt: null,
  revokedAt: null,
  lastUsedAt: null,
  createdAt: CREATED,
  updatedAt: CREATED,
  deliveredAt: CREATED,
  lastAttemptAt: CREATED,
  nextAttemptAt: null,
  date: DAY,
  startsOn: DAY,
  endsOn: '2026-07-03',
  from: DAY,
  to: '2026-07-31',
  limit: 25,
  q: 'ada',
  sort: '-createdAt',
  workspaceSlug: 'demo',
  tourSlug: 'old-town-walk',
  times: ['09:00', '14:30'],
  timeZone: 'Europe/Berlin',
  ticketTypeId: 'tt_4Xk9TzQ2mB7rW1pLs8YvNc',
  externalReference: 'PARTNER-1042',
};

function sampleFor(owner: Owner, key: string | undefined): Sample | undefined {
  if (key === undefined) return undefined;
  if (owner && `${owner}.${key}` in SAMPLES) return SAMPLES[`${owner}.${key}`];
  if (key === 'id' && owner && ID_KIND_OF[owner]) return id(ID_KIND_OF[owner]);
  if (key in ID_FIELDS) return id(ID_FIELDS[key] as keyof typeof ID_PREFIXES);
  return SAMPLES[key];
}

const actionsOf = (schema: v.GenericSchema) =>
  ((schema as { pipe?: readonly { type: string; kind: string; requirement?: unknown }[] }).pipe ?? []).filter(
    (item) => item.kind !== 'schema',
  );

const requirement = (schema: v.GenericSchema, type: string) =>
  actionsOf(schema).find((action) => action.type === type)?.requirement;

/** A value of the schema's own type, when no sample fits: shaped by its checks. */
function synthesize(schema: v.GenericSchema, owner: Owner, key: string | undefined): unknown {
  const s = schema as unknown as Record<string, unknown>;
  switch (schema.type) {
    case 'string': {
      const has = (type: string) => actionsOf(schema).some((action) => action.type === type);
      if (has('email')) return 'ada@example.com';
      if (has('url')) return 'https://example.com/';
      if (has('uuid')) return '7b0f5a8e-2c1d-4e5f-9a6b-0c1d2e3f4a5b';
      if (has('iso_timestamp')) return WHEN;
      if (has('iso_date')) return DAY;
      return key ? `${key} text` : 'text';
    }
    case 'number': {
      const min = requirement(schema, 'min_value');
      return typeof min === 'number' ? Math.max(min, 1) : 1;
    }
    case 'boolean':
      return true;
    case 'literal':
      return s.literal;
    case 'picklist':
      return (s.options as unknown[])[0];
    case 'enum':
      return (s.options as unknown[])[0];
    case 'optional':
    case 'exact_optional':
    case 'nullish':
    case 'undefinedable':
    case 'nullable':
    case 'non_optional':
    case 'non_nullable':
      return exampleAt(s.wrapped as v.GenericSchema, owner, key);
    case 'array': {
      const min = requirement(schema, 'min_length');
      const item = exampleAt(s.item as v.GenericSchema, owner, key);
      return Array.from({ length: typeof min === 'number' ? Math.max(min, 1) : 1 }, () => item);
    }
    case 'object':
    case 'strict_object':
    case 'loose_object':
    case 'object_with_rest': {
      const name = SCHEMA_NAMES.get(schema) ?? (owner && key ? `${owner}.${key}` : owner);
      return Object.fromEntries(
        Object.entries(s.entries as Record<string, v.GenericSchema>)
          .filter(([entry, child]) => !(child.type === 'optional' && sampleFor(name, entry) === OMIT))
          .map(([entry, child]) => [entry, exampleAt(child, name, entry)]),
      );
    }
    case 'union':
    case 'variant':
      return exampleAt((s.options as v.GenericSchema[])[0] as v.GenericSchema, owner, key);
    case 'record':
      return {};
    default:
      return null;
  }
}

/** The sample for this field if the schema takes it, else a value made from the schema. */
function exampleAt(schema: v.GenericSchema, owner: Owner, key: string | undefined): unknown {
  const sample = sampleFor(owner, key);
  if (sample !== undefined && sample !== OMIT && v.is(schema, sample)) return structuredClone(sample);
  return synthesize(schema, owner, key);
}

/** An example of a body or an answer: every field present, each valid for its schema. */
export function exampleOf(schema: v.GenericSchema): unknown {
  return exampleAt(schema, SCHEMA_NAMES.get(schema), undefined);
}

/** An example of one path or query parameter, by its name (none for an opaque cursor). */
export function parameterExample(name: string, schema: v.GenericSchema): unknown {
  return name === 'cursor' ? undefined : exampleAt(schema, undefined, name);
}
