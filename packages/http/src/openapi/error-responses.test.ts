import { ERROR_CODES } from '@travelops/domain/shared';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { statusForCode } from '../errors.js';
import { ERROR_RESPONSES, ErrorSchema } from './error-responses.js';

describe('the documented errors', () => {
  it('enumerate exactly the domain error codes', () => {
    expect(ErrorSchema.entries.code.options).toEqual(ERROR_CODES);
    expect(v.safeParse(ErrorSchema, { code: 'NOT_FOUND', message: 'x' }).success).toBe(true);
  });

  it.each(ERROR_CODES)('describe %s at the status statusForCode gives it', (code) => {
    expect(ERROR_RESPONSES[statusForCode(code)]?.description).toMatch(new RegExp(`^${code}: `));
  });

  it('give each code a status of its own, plus 413 and 415 for bodies', () => {
    expect(Object.keys(ERROR_RESPONSES)).toHaveLength(ERROR_CODES.length + 2);
    expect(ERROR_RESPONSES[413]?.description).toMatch(/^VALIDATION_ERROR: /);
    expect(ERROR_RESPONSES[415]?.description).toMatch(/^VALIDATION_ERROR: /);
  });
});
