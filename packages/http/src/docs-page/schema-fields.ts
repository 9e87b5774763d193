import { escapeHtml } from '@travelops/html';
import { dereference, type JsonRecord, listOf, recordOf, textOf } from './json.js';
import { codeSpan, renderMarkdown } from './markdown.js';

/** One property as the reference lists it. */
export interface Field {
  name: string;
  /** "string", "array of ParticipantInput", "object Booking"... */
  type: string;
  required: boolean;
  nullable: boolean;
  description: string;
  /** Limits and allowed values, in words: "1 to 200 characters", "one of `A`, `B`". */
  rules: string[];
  /** Its own fields, when it is an object (or a list or map of objects). */
  fields: Field[];
  /** A schema met again inside itself: named, not expanded a second time. */
  recursive: boolean;
}

/** What every text field carries (NUL is refused everywhere: docs/api.md), so it says nothing here. */
const NO_NUL_PATTERN = '^[^\\u0000]*$';
/** Deep enough for every shape of the contract; a guard, not a layout choice. */
const MAX_DEPTH = 12;

interface Shape {
  type: string;
  nullable: boolean;
  description: string;
  rules: string[];
  fields: Field[];
  recursive: boolean;
}

/**
 * The fields of a schema (an object's properties, or the properties of a list's items), every
 * level expanded and `$ref`s resolved through `document`. A schema that is not an object gives
 * no fields: `describeSchema` names its type.
 */
export function fieldsOf(document: unknown, schema: unknown): Field[] {
  return shapeOf(document, schema, [], 0).fields;
}

/** The type of a schema in words ("object BookingCreate", "array of Tour", "string"). */
export function describeSchema(document: unknown, schema: unknown): string {
  return shapeOf(document, schema, [], 0).type;
}

/** Where a schema sits while it is read: the named schemas around it (for recursion) and how deep. */
interface Place {
  document: unknown;
  seen: readonly string[];
  depth: number;
}

const shape = (type: string, extra: Partial<Shape> = {}): Shape => ({
  type,
  nullable: false,
  description: '',
  rules: [],
  fields: [],
  recursive: false,
  ...extra,
});

function shapeOf(document: unknown, raw: unknown, seen: readonly string[], depth: number): Shape {
  const { value: schema, name } = dereference(document, raw);
  // A property's own words about a shared schema come first.
  const description = textOf(recordOf(raw).description) || textOf(schema.description);
  if (name && (seen.includes(name) || depth > MAX_DEPTH)) {
    return shape(`object ${name}`, { description, recursive: true });
  }
  const place = { document, seen: name ? [...seen, name] : seen, depth };
  if (listOf(schema.anyOf).length > 0) return variantsShape(schema, description, place);

  const declared = Array.isArray(schema.type) ? schema.type.map(textOf) : [textOf(schema.type)];
  const nullable = declared.includes('null');
  const type = declared.find((t) => t !== 'null' && t !== '') ?? (schema.properties ? 'object' : '');
  const rules = rulesOf(schema);
  if (type === 'array') {
    const items = shapeOf(document, schema.items, place.seen, depth + 1);
    const { fields, recursive } = items;
    return shape(`array of ${items.type || 'values'}`, {
      nullable,
      description,
      rules: [...rules, ...items.rules],
      fields,
      recursive,
    });
  }
  if (type === 'object') return { ...objectShape(schema, name, place), nullable, description, rules };
  const format = textOf(schema.format);
  const label = schema.const !== undefined ? 'constant' : type || 'any';
  return shape(format ? `${label} (${format})` : label, { nullable, description, rules });
}

/** `anyOf`: [X, null] is how the contract says "X or null"; anything else is listed. */
function variantsShape(schema: JsonRecord, description: string, place: Place): Shape {
  const variants = listOf(schema.anyOf);
  const others = variants.filter((variant) => recordOf(variant).type !== 'null');
  const nullable = others.length < variants.length;
  if (others.length === 1) {
    const inner = shapeOf(place.document, others[0], place.seen, place.depth);
    return { ...inner, nullable: nullable || inner.nullable, description: description || inner.description };
  }
  const types = others.map((variant) => shapeOf(place.document, variant, place.seen, place.depth + 1).type);
  return shape(`one of: ${types.join(', ')}`, { nullable, description, rules: rulesOf(schema) });
}

/** An object's properties as fields, or a map's values (`additionalProperties`) as its fields. */
function objectShape(schema: JsonRecord, name: string | undefined, place: Place): Shape {
  const { document, seen, depth } = place;
  const properties = Object.entries(recordOf(schema.properties));
  const values = schema.additionalProperties;
  if (properties.length === 0 && values !== null && typeof values === 'object') {
    const inner = shapeOf(document, values, seen, depth + 1);
    return shape(`map of ${inner.type}`, { fields: inner.fields, recursive: inner.recursive });
  }
  const required = new Set(listOf(schema.required).map(textOf));
  const fields = properties.map(([key, property]) => ({
    name: key,
    required: required.has(key),
    ...shapeOf(document, property, seen, depth + 1),
  }));
  return shape(name ? `object ${name}` : 'object', { fields });
}

/** The limits of a schema, each in a few words (rendered as Markdown: values are code spans). */
function rulesOf(schema: JsonRecord): string[] {
  const rules: string[] = [];
  const range = (low: unknown, high: unknown, unit: string) => {
    const min = typeof low === 'number' ? low : undefined;
    const max = typeof high === 'number' ? high : undefined;
    if (min !== undefined && max !== undefined) rules.push(`${min} to ${max}${unit}`);
    else if (min !== undefined) rules.push(`at least ${min}${unit}`);
    else if (max !== undefined) rules.push(`at most ${max}${unit}`);
  };
  if (schema.const !== undefined) rules.push(`always ${codeSpan(schema.const)}`);
  const values = listOf(schema.enum);
  if (values.length > 0) rules.push(`one of ${values.map(codeSpan).join(', ')}`);
  range(schema.minLength, schema.maxLength, ' characters');
  range(schema.minimum, schema.maximum, '');
  range(schema.minItems, schema.maxItems, ' items');
  const pattern = textOf(schema.pattern);
  if (pattern && pattern !== NO_NUL_PATTERN) rules.push(`pattern ${codeSpan(pattern)}`);
  if (schema.default !== undefined) rules.push(`default ${codeSpan(schema.default)}`);
  return rules;
}

/** A list of fields as nested HTML lists, every level open (nothing hidden behind a click). */
export function renderFields(fields: readonly Field[]): string {
  if (fields.length === 0) return '';
  const items = fields.map((field) => {
    const badges = [
      `<code class="name">${escapeHtml(field.name)}</code>`,
      `<span class="type">${escapeHtml(field.type)}${field.nullable ? ' or null' : ''}</span>`,
      field.required ? '<span class="required">required</span>' : '',
      field.recursive ? '<span class="type">(its fields as above)</span>' : '',
    ].filter(Boolean);
    const rules =
      field.rules.length > 0 ? `<div class="rules">${renderMarkdown(field.rules.join('; '))}</div>` : '';
    const description = field.description
      ? `<div class="desc">${renderMarkdown(field.description)}</div>`
      : '';
    return `<li><p class="field">${badges.join(' ')}</p>${description}${rules}${renderFields(field.fields)}</li>`;
  });
  return `<ul class="fields">${items.join('')}</ul>`;
}
