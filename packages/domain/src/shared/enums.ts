export const BOOKING_STATUSES = ['PENDING', 'CONFIRMED', 'CANCELLED', 'COMPLETED', 'NO_SHOW'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export const PAYMENT_STATUSES = ['UNPAID', 'PENDING', 'PAID', 'PARTIALLY_REFUNDED', 'REFUNDED'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const AVAILABILITY_STATUSES = [
  'SCHEDULED',
  'BOARDING',
  'DEPARTED',
  'DELAYED',
  'COMPLETED',
  'CANCELLED',
] as const;
export type DepartureStatus = (typeof AVAILABILITY_STATUSES)[number];

/** A member's role; an API token may also have one of `TOKEN_ROLES`. */
export const ROLES = ['READ_ONLY', 'OPERATIONS', 'ADMIN'] as const;
export type Role = (typeof ROLES)[number];

/**
 * An API token's role: a member's, or RESELLER, which sells through the OCTO endpoints
 * (`/octo/*`, published tours only) and nothing else. Only tokens hold it: a reseller is a
 * connection, never a person who signs in.
 */
export const TOKEN_ROLES = [...ROLES, 'RESELLER'] as const;
export type TokenRole = (typeof TOKEN_ROLES)[number];

/** The spec's four bands and the ticket-type bands added beside them (issue: ticket types). */
export const AGE_BANDS = ['ADULT', 'CHILD', 'INFANT', 'SENIOR', 'YOUTH', 'STUDENT', 'OTHER'] as const;
export type AgeBand = (typeof AGE_BANDS)[number];

export const PAYMENT_MODES = ['CHECKOUT', 'PAYMENT_LINK', 'DEPOSIT', 'MANUAL'] as const;
export type PaymentMode = (typeof PAYMENT_MODES)[number];
