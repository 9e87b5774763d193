import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import { ROLE_PERMISSIONS } from './roles.js';
import type { $defs, components, operations, paths, webhooks } from './schema.js';

/** The server's own rules, generated from its tables: who may do what, a currency's minor unit. */
export { minorUnitDigits } from './minor-units.js';
export type { $defs, components, operations, paths, webhooks };
export { ROLE_PERMISSIONS };
/** A member's or an API key's role (RESELLER: API keys only, OCTO). */
export type TokenRole = keyof typeof ROLE_PERMISSIONS;
/** What a role may do; a GET needs `read`. */
export type Permission = (typeof ROLE_PERMISSIONS)[TokenRole][number];

/** The typed client: `client.GET('/workspaces/{workspaceId}/bookings', { params: ... })`. */
export type TravelOpsClient = Client<paths>;

export interface TravelOpsClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Where the API answers, e.g. `https://api.example.com` (no trailing path). */
  baseUrl: string;
  /** An API token (`tops_...`), sent as `Authorization: Bearer`. Server-side code only. */
  token?: string;
}

/**
 * A client typed by the served contract: paths, parameters, bodies and answers are checked at
 * compile time; every call resolves to `{ data }` or `{ error }` (the API's error envelope).
 */
export function createTravelOpsClient({
  token,
  headers,
  ...options
}: TravelOpsClientOptions): TravelOpsClient {
  return createClient<paths>({
    ...options,
    headers: { ...(token && { Authorization: `Bearer ${token}` }), ...headers },
  });
}

/** A webhook delivery's body by event kind: `WebhookEvent<'booking.confirmed'>`. */
export type WebhookEvent<K extends keyof webhooks> = NonNullable<
  webhooks[K]['post']['requestBody']
>['content']['application/json'];

type Schemas = components['schemas'];
/** The shapes integrators use most, by their contract names. */
export type Booking = Schemas['Booking'];
export type BookingCreate = Schemas['BookingCreate'];
export type Tour = Schemas['Tour'];
export type Availability = Schemas['Availability'];
export type Customer = Schemas['Customer'];
export type ErrorEnvelope = Schemas['ErrorEnvelope'];
export type Pagination = Schemas['Pagination'];
