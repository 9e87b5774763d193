import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { CreateCustomerSchema } from '../crm/index.js';
import { DateSchema } from './schemas.js';
import { parseInput } from './validation.js';

describe('parseInput', () => {
  it('names every bad field with a stable issue code', () => {
    const result = parseInput(CreateCustomerSchema, {
      name: 'x'.repeat(201),
      email: 'not-an-email',
      tags: ['ok', 7],
      extra: true,
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('VALIDATION_ERROR');
    expect(result.error.details).toEqual(
      expect.arrayContaining([
        { field: 'name', issue: 'too_long' },
        { field: 'email', issue: 'invalid_email' },
        { field: 'tags[1]', issue: 'invalid_type' },
        { field: 'extra', issue: 'unknown_field' },
      ]),
    );
  });

  it('reports a missing required field as required', () => {
    const result = parseInput(CreateCustomerSchema, { email: 'a@b.co' });
    expect(result.ok ? [] : result.error.details).toEqual([{ field: 'name', issue: 'required' }]);
  });

  it('rejects text with NUL and blank names', () => {
    const result = parseInput(CreateCustomerSchema, { name: ' ', email: 'a@b.co', phone: '12\u00003' });
    expect(result.ok ? [] : result.error.details).toEqual([
      { field: 'name', issue: 'blank' },
      { field: 'phone', issue: 'invalid_phone' },
    ]);
  });

  it('rejects a body that is not an object', () => {
    const result = parseInput(CreateCustomerSchema, [1]);
    expect(result.ok ? [] : result.error.details).toEqual([{ field: 'body', issue: 'invalid_type' }]);
  });

  it.each(['2026-02-30', '2026-13-01', '26-01-01', '2026-1-1'])('rejects the date %s', (date) => {
    expect(v.is(DateSchema, date)).toBe(false);
  });

  it('accepts a real leap day', () => {
    expect(v.is(DateSchema, '2028-02-29')).toBe(true);
  });
});
