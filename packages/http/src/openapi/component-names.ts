import * as access from '@travelops/domain/access';
import * as bookings from '@travelops/domain/bookings';
import * as catalog from '@travelops/domain/catalog';
import * as crm from '@travelops/domain/crm';
import * as guests from '@travelops/domain/guests';
import * as notifications from '@travelops/domain/notifications';
import * as operations from '@travelops/domain/operations';
import * as payments from '@travelops/domain/payments';
import * as shared from '@travelops/domain/shared';
import * as webhooks from '@travelops/domain/webhooks';
import type * as v from 'valibot';
import * as leadRoutes from '../routes/leads.js';
import * as errorResponses from './error-responses.js';

/**
 * Modules whose exported `XxxSchema` constants name components: the domain's contexts, which own
 * the contract, and the HTTP modules that declare a contract schema of their own.
 */
const SCHEMA_MODULES: readonly Record<string, unknown>[] = [
  access,
  bookings,
  catalog,
  crm,
  guests,
  notifications,
  operations,
  payments,
  shared,
  webhooks,
  errorResponses,
  leadRoutes,
];

/** Names published before they were derived; renaming a component would rename a client's type. */
const PUBLISHED_NAMES = new Map<unknown, string>([[bookings.SetBookingStatusSchema, 'BookingStatusChange']]);

export const isSchema = (value: unknown): value is v.GenericSchema =>
  typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'schema';

/** `TourSchema` -> `Tour`; components read noun first, so a leading verb goes last: `CreateTourSchema` -> `TourCreate`. */
export function componentNameOf(exportName: string): string {
  const base = exportName.replace(/Schema$/, '');
  const verb = /^(Create|Update|Convert)(?=[A-Z])/.exec(base)?.[1];
  return verb ? `${base.slice(verb.length)}${verb}` : base;
}

/** The component name of every exported schema, keyed by the schema object itself. */
function nameSchemas(): ReadonlyMap<v.GenericSchema, string> {
  const names = new Map<v.GenericSchema, string>();
  for (const module of SCHEMA_MODULES) {
    for (const [exportName, value] of Object.entries(module)) {
      if (!exportName.endsWith('Schema') || !isSchema(value)) continue;
      const name = PUBLISHED_NAMES.get(value) ?? componentNameOf(exportName);
      const known = names.get(value);
      // An alias that names one schema twice would make the document depend on import order.
      if (known !== undefined && known !== name) {
        throw new Error(`One schema is exported as both ${known} and ${name}: keep one name.`);
      }
      names.set(value, name);
    }
  }
  return names;
}

export const SCHEMA_NAMES = nameSchemas();
