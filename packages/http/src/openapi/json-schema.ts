import { type JsonSchema, toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';

export type JsonSchemaObject = JsonSchema & { properties?: Record<string, JsonSchema>; required?: string[] };

/** Components by name, as `collectComponents` gives them. */
export type Components = ReadonlyMap<string, v.GenericSchema>;

const NO_COMPONENTS: Components = new Map();

/**
 * JSON Schema (2020-12, as OpenAPI 3.1 uses) of a valibot schema. Components are referenced,
 * not inlined (the root too, unless `inlineRoot`). Custom `check` actions have no JSON form
 * and are left out.
 */
export function jsonSchemaOf(
  schema: v.GenericSchema,
  options: { inlineRoot?: boolean; components?: Components } = {},
): JsonSchemaObject {
  const components = [...(options.components ?? NO_COMPONENTS)];
  const name = components.find(([, component]) => component === schema)?.[0];
  if (name !== undefined && !options.inlineRoot) return { $ref: `#/components/schemas/${name}` };
  const definitions = Object.fromEntries(components.filter(([other]) => other !== name));
  const converted = toJsonSchema(schema, {
    target: 'draft-2020-12',
    errorMode: 'ignore',
    definitions,
    overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
  }) as JsonSchemaObject & { $schema?: string; $defs?: unknown };
  const { $schema: _schema, $defs: _defs, ...rest } = converted;
  return rest;
}
