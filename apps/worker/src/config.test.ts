import { describe, expect, it } from 'vitest';
import { parseWorkerEnv } from './config.js';

describe('parseWorkerEnv', () => {
  it.each([
    ['unset', {}],
    ['empty', { DATABASE_URL: '' }],
  ])('DATABASE_URL %s means no server database', (_label, env) => {
    expect(parseWorkerEnv(env)).toEqual({ ok: true, value: { databaseUrl: null } });
  });

  it.each(['postgres://travelops:pw@localhost:5432/travelops', 'postgresql://db.internal/travelops'])(
    'accepts %s',
    (url) => {
      expect(parseWorkerEnv({ DATABASE_URL: url, UNRELATED: 'x' })).toEqual({
        ok: true,
        value: { databaseUrl: url },
      });
    },
  );

  it.each(['not a url', 'mysql://user:hunter2@localhost/db'])(
    'rejects %s, naming the key and not echoing the value',
    (url) => {
      const result = parseWorkerEnv({ DATABASE_URL: url });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error).toHaveLength(1);
      expect(result.error[0]).toMatch(/^DATABASE_URL: /);
      expect(result.error.join('\n')).not.toContain(url);
    },
  );
});
