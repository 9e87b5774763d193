import { describe, expect, it } from 'vitest';
import { batchedLookup } from './batch.js';

/** A loader that records each statement it would send and answers `key -> value:key`. */
function recordingLoader() {
  const statements: string[][] = [];
  const load = async (keys: readonly string[]) => {
    statements.push([...keys]);
    return new Map(keys.filter((key) => !key.startsWith('missing')).map((key) => [key, `value:${key}`]));
  };
  return { statements, lookup: batchedLookup(load) };
}

describe('batchedLookup', () => {
  it('reads asked for in one turn of the event loop share one statement, each caller its own answer', async () => {
    const { statements, lookup } = recordingLoader();
    const answers = await Promise.all(['a', 'b', 'a', 'missing-c'].map(lookup));
    expect(answers).toEqual(['value:a', 'value:b', 'value:a', null]);
    expect(statements).toEqual([['a', 'b', 'missing-c']]);
  });

  it('a read of a later turn goes out in a statement of its own', async () => {
    const { statements, lookup } = recordingLoader();
    expect(await lookup('a')).toBe('value:a');
    expect(await lookup('b')).toBe('value:b');
    expect(statements).toEqual([['a'], ['b']]);
  });

  it('a long queue is split into statements of at most 200 keys', async () => {
    const { statements, lookup } = recordingLoader();
    const keys = Array.from({ length: 450 }, (_, i) => `k${i}`);
    const answers = await Promise.all(keys.map(lookup));
    expect(answers).toEqual(keys.map((key) => `value:${key}`));
    expect(statements.map((keysOf) => keysOf.length)).toEqual([200, 200, 50]);
  });

  it('a failed statement rejects every read it carried, and the next turn reads again', async () => {
    let fail = true;
    const lookup = batchedLookup(async (keys) => {
      if (fail) throw new Error('connection lost');
      return new Map(keys.map((key) => [key, key]));
    });
    const outcomes = await Promise.allSettled([lookup('a'), lookup('b')]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await lookup('a')).toBe('a');
  });
});
