import { describe, expect, it } from 'vitest';
import { describeConnectionError } from './connection-errors.js';

const URL = 'postgres://app:s3cret@db.example:6543/travelops';
const withCode = (code: string, message = `failed with ${code}`) =>
  Object.assign(new Error(message), { code });

describe('describeConnectionError: one line naming DATABASE_URL and what to do', () => {
  it.each([
    [
      'refused',
      withCode('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.1:6543'),
      /no PostgreSQL answers at db\.example:6543.*Start PostgreSQL/,
    ],
    [
      'unknown host',
      withCode('ENOTFOUND', 'getaddrinfo ENOTFOUND db.example'),
      /the host db\.example is unknown/,
    ],
    [
      'missing database',
      withCode('3D000', 'database "travelops" does not exist'),
      /"travelops" does not exist on db\.example:6543\. Create it \(createdb -h db\.example -p 6543 -U app travelops\)/,
    ],
    [
      'wrong password',
      withCode('28P01', 'password authentication failed for user "app"'),
      /refused user "app".*Correct the user or password/,
    ],
    ['unknown role', withCode('28000', 'role "app" does not exist'), /refused user "app"/],
    [
      'refused on every address',
      new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], ''),
      /no PostgreSQL answers/,
    ],
  ])('%s', (_name, error, expected) => {
    const line = describeConnectionError(error, URL) as string;
    expect(line).toMatch(/^DATABASE_URL: /);
    expect(line).toMatch(expected);
    expect(line).not.toContain('\n');
    expect(line).not.toContain('s3cret');
  });

  it('any other error is not explained (a bug keeps its stack)', () => {
    expect(describeConnectionError(withCode('23505'), URL)).toBeNull();
    expect(describeConnectionError(new Error('boom'), URL)).toBeNull();
    expect(describeConnectionError('text', URL)).toBeNull();
  });
});
