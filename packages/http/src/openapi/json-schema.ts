import { type JsonSchema, toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { COMPONENT_SCHEMAS } from './components.js';

export type JsonSchemaObject = JsonSchema & { properties?: Record<string, JsonSchema>; required?: string[] };

const componentNames = new Map(Object.entries(COMPONENT_SCHEMAS).map(([name, schema]) => [schema, name]));

/**
 * JSON Schema (2020-12, as OpenAPI 3.1 uses) of a valibot schema. Named components are
 * referenced, not inlined. Custom `check` actions have no JSON form and are left out.
 */
export function jsonSchemaOf(
  schema: v.GenericSchema,
  options: { inlineRoot?: boolean } = {},
): JsonSchemaObject {
  const name = componentNames.get(schema);
  if (name && !options.inlineRoot) return { $ref: `#/components/schemas/${name}` };
  const definitions = Object.fromEntries(
    Object.entries(COMPONENT_SCHEMAS).filter(([, component]) => component !== schema),
  );
  const converted = toJsonSchema(schema, {
    target: 'draft-2020-12',
    errorMode: 'ignore',
    definitions,
    overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
  }) as JsonSchemaObject & { $schema?: string; $defs?: unknown };
  const { $schema: _schema, $defs: _defs, ...rest } = converted;
  return rest;
}
