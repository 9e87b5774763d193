import type { JsonSchemaObject } from './json-schema.js';

/**
 * What each field means, for /openapi.json and the reference: by property name, with
 * `Owner.field` (or `Owner.nested.field`) where one name means different things. The domain's
 * schemas stay free of prose; these attach to the JSON Schema they become. A test checks that
 * every request-body field has one.
 */
const FIELD_DESCRIPTIONS: Record<string, string> = {
  // Identity and references.
  id: 'Opaque id with its kind as prefix (`bkg_`, `tour_`, `avl_`, `cus_`...).',
  availabilityId: 'The departure (`avl_...`).',
  'BookingUpdate.availabilityId':
    'Move the booking to another departure of the same tour (`avl_...`); seats move atomically.',
  'IncidentCreate.availabilityId': 'The departure it happened on (`avl_...`), if any.',
  bookingId: 'The booking (`bkg_...`).',
  customerId: 'The customer (`cus_...`).',
  tourId: 'The tour (`tour_...`).',
  'BlackoutDateCreate.tourId': 'Only this tour (`tour_...`); null or absent: every tour of the workspace.',
  companyId: 'The company the record belongs to (`cmp_...`).',
  leadId: 'The lead (`lead_...`).',
  memberId: 'The workspace member (`mem_...`).',
  assigneeId: 'The member who should do it (`mem_...`).',
  ownerId: 'The member who follows the lead up (`mem_...`).',
  guideId: 'The guide assigned to the departure (a member id, `mem_...`); null to unassign.',
  driverId: 'The driver assigned to the departure (a member id, `mem_...`); null to unassign.',
  vehicleId: 'The vehicle assigned to the departure (`veh_...`); null to unassign.',
  participantId: 'The participant (`ptc_...`) of the booking.',
  resourceRequirements:
    'What each departure of the tour runs on (docs/resources.md): `{ resourceId }`, that resource; `{ kind, seatsFrom: "departure" }`, the first free active one of that kind seating the departure\'s capacity. Chosen when a departure is created.',
  resourceIds:
    "The resources the departure runs on (`res_...`, or a vehicle's `veh_...`); its SHARED_SEATS ones cap its `seatsRemaining`. On create, absent: chosen from the tour's `resourceRequirements`.",
  force:
    "ADMIN only: a guide's or driver's overlapping departure or time off does not refuse the assignment; each rule overridden is recorded on the departure's history.",
  kind: 'What kind of resource: VEHICLE, BOAT, ROOM, EQUIPMENT or OTHER.',
  'DepartureHistoryEntry.kind': 'What happened: ASSIGNMENT_FORCED, an ADMIN overrode an assignment rule.',
  sharing:
    'EXCLUSIVE (default): one departure at a time; SHARED_SEATS: departures that overlap on it share its `seats`.',
  turnaroundMinutes: 'Minutes after a departure ends before the resource serves the next (default 0).',
  active: 'An inactive resource is not chosen or assigned; departures keep it (default true).',
  participantIds: 'Participants to check in (`ptc_...`); absent: all of them.',
  workspaceId: 'The workspace (`ws_...`).',
  // People and contact.
  name: 'Display name.',
  'BookingCreate.customer.name': 'Full name of the person who books.',
  'PublicBookingCreate.customer.name': 'Full name of the person who books.',
  'ParticipantInput.name': 'Full name of the traveller.',
  'Participant.name': 'Full name of the traveller.',
  'Tour.name': 'Name of the tour as guests see it.',
  'TourCreate.name': 'Name of the tour as guests see it.',
  'TourUpdate.name': 'Name of the tour as guests see it.',
  email: 'E-mail address.',
  'BookingCreate.customer.email':
    'E-mail of the person who books; the customer is found by it (case-insensitively) or created.',
  'PublicBookingCreate.customer.email':
    'E-mail of the person who books; the customer is found by it (case-insensitively) or created.',
  'CustomerCreate.email': 'E-mail address; unique in the workspace, case-insensitively (409 when taken).',
  'CustomerUpdate.email': 'E-mail address; unique in the workspace, case-insensitively (409 when taken).',
  phone: 'Phone number: digits, spaces and `+()-.`, 3 to 40 characters.',
  displayName: 'Name shown for the guide.',
  contactName: 'Person to speak to at the vendor.',
  signedName: 'Name the participant signs the waiver with.',
  reportedBy: 'Who reported it (free text).',
  // Booking.
  customer: 'Who books: found by e-mail in the workspace, or created.',
  participants:
    'The travellers, one entry each (1 to 100); their number is the seats taken. In a PATCH the list replaces the old one, and waivers and check-ins restart.',
  ageBand: 'Age band of the traveller: `ADULT`, `CHILD`, `INFANT` or `SENIOR`.',
  dietaryNotes: 'Food needs to pass on to the guide and caterers.',
  accessibilityNotes: 'Access needs to plan for.',
  emergencyContact: 'Who to call in an emergency, and how.',
  addOns: 'Extras sold with the tour.',
  'BookingCreate.addOns': 'Extras to buy, by add-on id of the tour, each with a quantity (at least 1).',
  'BookingCreate.addOns.id': "Add-on id as listed in the tour's `addOns`.",
  'PublicBookingCreate.addOns': 'Extras to buy, by add-on id of the tour, each with a quantity (at least 1).',
  'PublicBookingCreate.addOns.id': "Add-on id as listed in the tour's `addOns`.",
  'AddOnInput.id': "Add-on id as listed in the tour's `addOns`.",
  'TourCreate.addOns': 'Extras guests can buy with this tour, each with its own price.',
  'TourUpdate.addOns': 'Extras guests can buy with this tour; replaces the list.',
  'TourCreate.addOns.id': 'Stable id of the add-on, used by bookings (`lunch-box`).',
  'TourUpdate.addOns.id': 'Stable id of the add-on, used by bookings (`lunch-box`).',
  quantity: 'How many (at least 1).',
  paymentMode:
    "How the booking is paid: `CHECKOUT` (default: hosted checkout, 30 min hold), `PAYMENT_LINK` (24 h hold), `DEPOSIT` (the tour's deposit now, 30 min hold) or `MANUAL` (no hold; the operator records payment).",
  notes: 'Internal notes; never shown to guests.',
  'PublicBookingCreate.notes':
    "The guest's message to the operator (at most 1 000 characters); kept as the booking's `guestMessage`, never as its internal `notes`.",
  guestMessage:
    "What the guest wrote when booking through the public path (their words, not the operator's); null otherwise.",
  totalAmount:
    'Price in minor units (12500 = 125.00). In a PATCH it overrides the price; without it the price follows the participants.',
  status: 'Status; see the operation for the allowed moves.',
  'BookingStatusChange.status':
    'Target status: PENDING -> CONFIRMED or CANCELLED; CONFIRMED -> CANCELLED before the start, COMPLETED or NO_SHOW after it.',
  reason: 'Why, in a few words; kept in the history.',
  notifyCustomer:
    'E-mail the customer about the change (default false): CONFIRMED sends the confirmation, CANCELLED the cancellation with its refund, COMPLETED and NO_SHOW a short note.',
  cancelUpcoming:
    "Cancel the customer's upcoming bookings first (seats released, no e-mail, no refund); default false: 422 `upcoming_bookings` naming them.",
  'BookingUpdate.notifyCustomer':
    'E-mail the customer when the departure or the participants change (default true); false sends nothing.',
  reminderHoursBefore:
    'Hours before the start at which guests of a CONFIRMED booking get a reminder e-mail (1 to 168, default 24); null: no reminders.',
  amount: "Amount in minor units of the booking's currency.",
  'RefundCreate.amount': 'Amount to refund in minor units; absent: everything paid and not yet refunded.',
  'RefundCreate.reason': 'Why the money goes back; kept with the refund.',
  accepted: 'Must be true: the participant accepts the waiver.',
  // Catalog.
  slug: 'URL name, lowercase words joined by `-`; derived from the name when absent (409 when taken).',
  description: 'Longer text shown to readers.',
  durationMinutes: 'How long the tour lasts, in minutes.',
  basePrice: 'Price per participant in minor units (2500 = 25.00) of `currency`.',
  price: "Price per unit in minor units of the tour's currency.",
  currency: 'ISO 4217 currency code, three capital letters (`EUR`).',
  capacity: "Seats; a departure defaults to its tour's and never drops below the seats booked.",
  meetingPoint: 'Where guests meet; null when told later.',
  isPublic: 'Published: listed on the public endpoints for booking widgets.',
  depositPercent: 'Share of the price a DEPOSIT booking pays up front (0 to 100, default 20).',
  startsAt: 'Start, ISO 8601 date-time with offset (stored and answered in UTC).',
  endsAt: 'End, ISO 8601 date-time with offset; after the start.',
  bookingCutoffAt: 'No booking after this instant (before the start); null: until the start.',
  'AvailabilityCreate.status': 'Initial status (default `SCHEDULED`).',
  'AvailabilityUpdate.status':
    'Move the departure: SCHEDULED/DELAYED -> SCHEDULED, DELAYED, BOARDING, DEPARTED, CANCELLED; BOARDING -> DELAYED, DEPARTED, CANCELLED; DEPARTED -> COMPLETED.',
  date: 'The day, `YYYY-MM-DD` (UTC).',
  // CRM.
  tags: 'Free labels for filtering and segments.',
  marketingConsent: 'The person agreed to receive marketing e-mail.',
  domain: 'Web domain of the company (`harbour-travel.example`).',
  addressLine1: 'Street address.',
  addressLine2: 'Further address line.',
  city: 'City.',
  region: 'Region, state or county.',
  postalCode: 'Postal code.',
  country: 'ISO 3166-1 alpha-2 country code (`GB`).',
  title: 'Short title.',
  dueAt: 'When it is due; null: no date.',
  priority: 'How urgent: `LOW`, `NORMAL` or `HIGH`.',
  'CrmTaskCreate.status': 'Task state: `OPEN`, `DONE` or `CANCELLED`.',
  'CrmTaskUpdate.status': 'Task state: `OPEN`, `DONE` or `CANCELLED`.',
  source: 'Where the lead came from.',
  estimatedValue: 'What the deal may be worth, in minor units of `currency`.',
  'LeadCreate.status':
    'Pipeline stage: `NEW`, `CONTACTED`, `QUALIFIED` or `LOST` (conversion sets `CONVERTED`).',
  'LeadUpdate.status':
    'Pipeline stage: `NEW`, `CONTACTED`, `QUALIFIED` or `LOST` (conversion sets `CONVERTED`).',
  body: 'Text of the note.',
  // Operations.
  isGuide: 'The member guides tours; false removes the guide profile from lists.',
  languages: 'Languages the guide leads tours in (ISO 639-1, `en`).',
  certifications: 'Qualifications, such as first aid.',
  registration: 'Number plate.',
  seats: 'Passenger seats.',
  'VehicleCreate.status': 'Fleet state: `ACTIVE`, `MAINTENANCE` or `RETIRED`.',
  'VehicleUpdate.status': 'Fleet state: `ACTIVE`, `MAINTENANCE` or `RETIRED`.',
  category: 'What the vendor supplies.',
  severity: '`LOW`, `MEDIUM`, `HIGH` or `CRITICAL`; HIGH and CRITICAL emit `incident.created`.',
  'IncidentUpdate.status': 'Follow-up state: `OPEN`, `INVESTIGATING`, `RESOLVED` or `CLOSED`.',
  occurredAt: 'When it happened.',
  startsOn: 'First day of the trip, `YYYY-MM-DD`.',
  endsOn: 'Last day of the trip, `YYYY-MM-DD`; not before `startsOn`.',
  type: 'Kind of record.',
  'ItineraryItemCreate.type': 'Kind of item: activity, transfer, accommodation, meal, free time or other.',
  'ItineraryItemUpdate.type': 'Kind of item: activity, transfer, accommodation, meal, free time or other.',
  location: 'Where it takes place.',
  operatorNotes: "Notes for the team; left out of the traveller's public view.",
  // Webhooks, keys, sessions.
  url: 'Where deliveries are POSTed: http(s); in production never a private or loopback address.',
  events: 'Event kinds to receive (`booking.confirmed`...); see Webhooks.',
  enabled: 'Deliveries are sent (default true).',
  overlapHours: 'How long the previous secret keeps signing beside the new one (default 24).',
  expiresInDays: 'The key stops working after this many days; absent: never.',
  'ApiKeyCreate.name': 'What the key is for, shown in the key list (`Channel manager`).',
  role: 'Role: `READ_ONLY`, `OPERATIONS` or `ADMIN`.',
  password: "The member's password.",
  code: 'Six digits the authenticator app shows now (TOTP, RFC 6238); each code works once.',
  recoveryCode:
    'One of the ten recovery codes shown at enrolment (`xxxxx-xxxxx`; case, spaces and dashes do not matter); each works once.',
  // Answers.
  createdAt: 'When it was created (UTC, milliseconds).',
  updatedAt: 'When it last changed (UTC, milliseconds).',
  expiresAt: 'When it expires (UTC); for a booking, when an unpaid hold is released.',
  paymentStatus: 'What was paid: `UNPAID`, `PENDING` (part paid), `PAID`, `PARTIALLY_REFUNDED`, `REFUNDED`.',
  checkoutUrl: 'Hosted checkout page for this booking (CHECKOUT and DEPOSIT).',
  paymentLinkUrl: 'Payment link for this booking (PAYMENT_LINK).',
  publicToken: 'Guest token: `/public/bookings/{publicToken}` shows this one booking.',
  seatsRemaining: 'Seats left: capacity minus booked seats.',
  bookedSeats: 'Seats taken by PENDING and CONFIRMED bookings.',
  // Ticket types, schedules, policies and holds (docs/inventory.md).
  timeZone:
    'IANA time zone of the tour (`Europe/Berlin`; default `UTC`): schedules and the public calendar read local times in it.',
  ticketTypes:
    "The tour's ticket types; a PATCH replaces the list (an entry with an existing `id` keeps and changes it, one without adds a type, a missing one is removed unless a live booking sells it).",
  minAge: 'Youngest age the ticket type is for, in years; null: no minimum.',
  maxAge: 'Oldest age the ticket type is for, in years; null: no maximum.',
  minPerBooking: 'At least this many of the type on a booking that has any; null: no minimum.',
  maxPerBooking: 'At most this many of the type on one booking; null: no maximum.',
  requiresAdult: 'A booking with this type needs at least one ADULT or SENIOR participant.',
  cancellationPolicy:
    'When guests may cancel (`cutoffHours` before the start) and what they get back (`refund` FULL, PARTIAL with `refundPercent`, or NONE); default 24 hours, FULL.',
  maxSeatsPerPublicBooking: 'Most seats one guest (public) booking may hold (default 10).',
  publicHoldMinutes: 'How long an unpaid guest booking holds its seats, in minutes (default 15).',
  prices:
    "This departure's own prices for some of the tour's ticket types; the others keep the type's price.",
  ticketTypeId: "One of the tour's ticket types (`tt_...`).",
  'ParticipantInput.ticketTypeId':
    "The ticket type (`tt_...`); without it `ageBand` picks the tour's type of that band, and without both the ADULT type.",
  daysOfWeek: "Days the schedule runs (`MON`...`SUN`), in the tour's time zone.",
  times: "Local start times (`HH:MM`, 24 h) in the tour's time zone.",
  externalReference: "The channel partner's own id of the booking; unique in the workspace (null clears it).",
  refundAmount: 'With status CANCELLED: refund this much (minor units) of what was paid; absent: no refund.',
  minutes: 'How many minutes to add to the hold (1 to 60); it never ends more than 60 minutes from now.',
};

const OBJECT = (schema: JsonSchemaObject) =>
  schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object'));

/** Adds a description to each property that has none and that the table knows, nested objects too. */
export function describeFields(schema: JsonSchemaObject, owner: string | undefined): JsonSchemaObject {
  if (!OBJECT(schema) || !schema.properties) return schema;
  for (const [key, property] of Object.entries(schema.properties)) {
    if (typeof property !== 'object' || property === null) continue;
    const field = property as JsonSchemaObject & { items?: JsonSchemaObject; description?: string };
    const text = (owner && FIELD_DESCRIPTIONS[`${owner}.${key}`]) ?? FIELD_DESCRIPTIONS[key];
    if (text !== undefined && field.description === undefined) field.description = text;
    const path = owner ? `${owner}.${key}` : key;
    describeFields(field, path);
    if (field.items && typeof field.items === 'object') describeFields(field.items, path);
  }
  return schema;
}
