import { describe, expect, it } from 'vitest';
import { describeSchema, type Field, fieldsOf, renderFields } from './schema-fields.js';

const document = {
  components: {
    schemas: {
      Customer: {
        type: 'object',
        required: ['name', 'email'],
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[^\\u0000]*$' },
          email: { type: 'string', format: 'email', description: 'Found by it, or created.' },
          phone: { anyOf: [{ type: 'string', pattern: '^[0-9+ ]+$' }, { type: 'null' }] },
        },
      },
      Booking: {
        type: 'object',
        properties: {
          customer: { $ref: '#/components/schemas/Customer' },
          participants: { type: 'array', maxItems: 100, items: { $ref: '#/components/schemas/Customer' } },
          status: { type: 'string', enum: ['PENDING', 'CONFIRMED'] },
          notes: { type: ['string', 'null'] },
          kind: { type: 'string', const: 'booking' },
          counts: { type: 'object', additionalProperties: { type: 'integer', minimum: 0 } },
        },
      },
      Node: {
        type: 'object',
        properties: {
          label: { type: 'string' },
          children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
        },
      },
    },
  },
};

const byName = (fields: readonly Field[], name: string) =>
  fields.find((field) => field.name === name) as Field;

describe('fieldsOf', () => {
  const fields = fieldsOf(document, { $ref: '#/components/schemas/Booking' });

  it('opens every level: the fields of a nested object and of a list of objects', () => {
    const customer = byName(fields, 'customer');
    expect(customer.type).toBe('object Customer');
    expect(customer.fields.map((field) => field.name)).toEqual(['name', 'email', 'phone']);
    expect(byName(customer.fields, 'email')).toMatchObject({ type: 'string (email)', required: true });
    expect(byName(customer.fields, 'phone').required).toBe(false);
    const participants = byName(fields, 'participants');
    expect(participants.type).toBe('array of object Customer');
    expect(participants.fields.map((field) => field.name)).toEqual(['name', 'email', 'phone']);
    expect(participants.rules).toEqual(['at most 100 items']);
  });

  it.each([
    ['anyOf with null', 'phone', { type: 'string', nullable: true }],
    ['a type list with null', 'notes', { type: 'string', nullable: true }],
    ['a constant', 'kind', { type: 'constant', rules: ['always `booking`'] }],
    ['an enum', 'status', { rules: ['one of `PENDING`, `CONFIRMED`'] }],
    ['a map', 'counts', { type: 'map of integer' }],
  ])('%s', (_name, field, expected) => {
    const all = [...fields, ...byName(fields, 'customer').fields];
    expect(byName(all, field)).toMatchObject(expected);
  });

  it('says limits in words, and leaves out the NUL guard every text field has', () => {
    const customer = byName(fields, 'customer');
    expect(byName(customer.fields, 'name').rules).toEqual(['1 to 200 characters']);
    expect(byName(customer.fields, 'phone').rules).toEqual(['pattern `^[0-9+ ]+$`']);
  });

  it('names a schema met again inside itself instead of expanding it for ever', () => {
    const children = byName(fieldsOf(document, { $ref: '#/components/schemas/Node' }), 'children');
    expect(children).toMatchObject({ type: 'array of object Node', recursive: true, fields: [] });
  });

  it('describes a schema that is not an object by its type', () => {
    expect(describeSchema(document, { type: 'string' })).toBe('string');
    expect(fieldsOf(document, { type: 'string' })).toEqual([]);
    expect(
      describeSchema(document, { type: 'array', items: { $ref: '#/components/schemas/Customer' } }),
    ).toBe('array of object Customer');
  });
});

describe('renderFields', () => {
  it('nests lists as the fields nest, with nothing behind a click', () => {
    const html = renderFields(fieldsOf(document, { $ref: '#/components/schemas/Booking' }));
    expect(html).not.toContain('<details');
    expect(html).toMatch(
      /<code class="name">customer<\/code>.*<ul class="fields"><li><p class="field"><code class="name">name<\/code>/,
    );
    expect(html).toContain('<span class="required">required</span>');
  });

  it('escapes every name, type, rule and description', () => {
    const hostile = {
      type: 'object',
      properties: {
        '<img src=x onerror=alert(1)>': {
          type: 'string',
          enum: ['</code><script>alert(1)</script>'],
          description: '<script>alert(2)</script>',
        },
      },
    };
    const html = renderFields(fieldsOf({}, hostile));
    expect(html).not.toMatch(/<(img|script)\b/);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('&lt;script&gt;alert(2)&lt;/script&gt;');
  });
});
