import { describe, expect, it } from 'vitest';
import { generatePublicToken } from './public-tokens.js';

describe('generatePublicToken', () => {
  it('is 32 URL-safe base62 characters (about 190 bits) with no prefix', () => {
    const token = generatePublicToken();
    expect(token).toMatch(/^[0-9A-Za-z]{32}$/);
    expect(encodeURIComponent(token)).toBe(token);
    expect(32 * Math.log2(62)).toBeGreaterThanOrEqual(128);
  });

  it('never repeats over 1000 draws', () => {
    expect(new Set(Array.from({ length: 1000 }, generatePublicToken)).size).toBe(1000);
  });
});
