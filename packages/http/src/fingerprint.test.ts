import { describe, expect, it } from 'vitest';
import { canonicalJson, fingerprintBody } from './fingerprint.js';

describe('request fingerprint', () => {
  it('is the same for reordered keys at any depth', () => {
    expect(fingerprintBody({ a: 1, b: { c: [1, { d: 2, e: 3 }] } })).toBe(
      fingerprintBody({ b: { c: [1, { e: 3, d: 2 }] }, a: 1 }),
    );
  });
  it('differs for a different value or array order', () => {
    expect(fingerprintBody({ a: 1 })).not.toBe(fingerprintBody({ a: 2 }));
    expect(fingerprintBody([1, 2])).not.toBe(fingerprintBody([2, 1]));
  });
  it('writes canonical JSON', () => {
    expect(canonicalJson({ b: 'x', a: [true, null] })).toBe('{"a":[true,null],"b":"x"}');
  });
});
