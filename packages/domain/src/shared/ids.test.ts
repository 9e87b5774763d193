import { describe, expect, it } from 'vitest';
import { hasIdPrefix, newId, randomBase62 } from './ids.js';

describe('ids', () => {
  it('a new id is its prefix, an underscore and 22 base62 characters', () => {
    const id = newId('booking');
    expect(id).toMatch(/^bkg_[0-9A-Za-z]{22}$/);
    expect(hasIdPrefix('booking', id)).toBe(true);
    expect(hasIdPrefix('customer', id)).toBe(false);
  });

  it('ids never repeat, across many refills of the random pool', () => {
    const ids = new Set(Array.from({ length: 20_000 }, () => newId('event')));
    expect(ids.size).toBe(20_000);
  });

  it('every base62 character is about equally likely (no modulo bias)', () => {
    const counts = new Map<string, number>();
    const text = randomBase62(620_000);
    expect(text).toHaveLength(620_000);
    for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 10 000 expected each; a biased alphabet (byte % 62 without rejection) gives 0-3 about 25% more.
    for (const count of counts.values()) expect(Math.abs(count - 10_000)).toBeLessThan(600);
  });
});
