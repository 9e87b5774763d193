import * as domain from '@travelops/domain';
import type * as v from 'valibot';
import * as leadRoutes from '../routes/leads.js';
import * as errorResponses from './error-responses.js';

/**
 * Modules whose exported `XxxSchema` constants name components: the domain, which owns the
 * contract, and the HTTP modules that declare a contract schema of their own.
 */
const SCHEMA_MODULES: readonly Record<string, unknown>[] = [domain, errorResponses, leadRoutes];

/** Names published before they were derived; renaming a component would rename a client's type. */
const PUBLISHED_NAMES = new Map<unknown, string>([[domain.SetBookingStatusSchema, 'BookingStatusChange']]);

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
