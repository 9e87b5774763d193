import {
  ApiKeySchema,
  ApiKeyWithSecretSchema,
  CreateApiKeySchema,
  LoginSchema,
  MemberSchema,
  SessionSchema,
  SessionWorkspaceSchema,
  SignedOutSchema,
  UpdateMemberSchema,
} from '@travelops/domain/access';
import { AddOnInputSchema, BookingAddOnSchema } from '@travelops/domain/bookings';
import { TourAddOnSchema } from '@travelops/domain/catalog';
import { DeletedSchema, RotateWebhookSecretSchema } from '@travelops/domain/webhooks';
import type * as v from 'valibot';
import { isSchema, SCHEMA_NAMES } from './component-names.js';

/**
 * Named object schemas that /openapi.json has always published inline. Turning one into a
 * component changes no shape, but replaces an inline object by a `$ref` and gives generated
 * clients a new type: a contract change of its own, not a side effect. New schemas never go here.
 */
export const PUBLISHED_INLINE: ReadonlySet<v.GenericSchema> = new Set<v.GenericSchema>([
  AddOnInputSchema,
  ApiKeySchema,
  ApiKeyWithSecretSchema,
  BookingAddOnSchema,
  CreateApiKeySchema,
  DeletedSchema,
  LoginSchema,
  MemberSchema,
  RotateWebhookSecretSchema,
  SessionSchema,
  SessionWorkspaceSchema,
  SignedOutSchema,
  TourAddOnSchema,
  UpdateMemberSchema,
]);

const OBJECT_TYPES = new Set(['object', 'loose_object', 'strict_object', 'object_with_rest']);

/** Where a schema holds the schemas that @valibot/to-json-schema may turn into a `$ref`. */
const CHILD_KEYS = ['entries', 'item', 'items', 'wrapped', 'options', 'rest', 'key', 'value'] as const;

function childrenOf(schema: v.GenericSchema): v.GenericSchema[] {
  return CHILD_KEYS.flatMap((key) => {
    const value = (schema as unknown as Record<string, unknown>)[key];
    if (Array.isArray(value)) return value.filter(isSchema);
    if (isSchema(value)) return [value];
    return key === 'entries' && typeof value === 'object' && value !== null
      ? Object.values(value).filter(isSchema)
      : [];
  });
}

export interface ComponentRoots {
  /** Schemas the document refers to where a component may stand (bodies, replies, payloads). */
  referenced: readonly v.GenericSchema[];
  /** Schemas the document always spells out (path and query parameters); only their insides count. */
  inlined: readonly v.GenericSchema[];
}

/**
 * The components of a document: every named object schema (see `SCHEMA_NAMES`) that stands
 * where the document could refer to it, at a root or nested; the schema of a pipe is spelled
 * out by the converter, so only its insides count. Sorted by name.
 */
export function collectComponents(
  roots: ComponentRoots,
  publishedInline: ReadonlySet<v.GenericSchema> = PUBLISHED_INLINE,
): ReadonlyMap<string, v.GenericSchema> {
  const components = new Map<string, v.GenericSchema>();
  const walked = new Set<v.GenericSchema>();
  const visit = (schema: v.GenericSchema, referable: boolean) => {
    const name = referable ? SCHEMA_NAMES.get(schema) : undefined;
    if (name !== undefined && OBJECT_TYPES.has(schema.type) && !publishedInline.has(schema)) {
      const known = components.get(name);
      if (known !== undefined && known !== schema) {
        throw new Error(`Two schemas would be published as component ${name}: rename one.`);
      }
      components.set(name, schema);
    }
    if (walked.has(schema)) return;
    walked.add(schema);
    for (const child of childrenOf(schema)) visit(child, true);
    const pipe = (schema as { pipe?: readonly unknown[] }).pipe ?? [];
    for (const item of pipe) if (isSchema(item) && item !== schema) visit(item, false);
  };
  for (const schema of roots.referenced) visit(schema, true);
  for (const schema of roots.inlined) visit(schema, false);
  return new Map([...components].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
