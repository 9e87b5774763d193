import { describe, expect, it } from 'vitest';
import { capabilitiesOf } from './router.js';

describe('Octo-Capabilities', () => {
  it.each([
    [undefined, []],
    ['', []],
    ['octo/pricing', ['octo/pricing']],
    [' octo/content , octo/pricing ', ['octo/pricing']],
    ['octo/content,octo/pickups', []],
  ])('%j -> %j (what is served of what was asked)', (header, served) => {
    expect(capabilitiesOf(header)).toEqual(served);
  });
});
