import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, runCli, startBuiltServer } from '../support/processes.js';

// A DATABASE_URL that cannot be used: the API, and the CLI, say so in one line naming the
// variable and what to do, with no driver stack (the first thing a newcomer reads).
const ADMIN = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const at = (change: (url: URL) => void) => {
  const url = new URL(ADMIN);
  change(url);
  return url.href;
};
let cwd: string;
let cases: [string, string, RegExp][];
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'travelops-database-url-'));
  const closed = await freePort();
  cases = [
    [
      'nothing listens there',
      at((url) => {
        url.port = String(closed);
      }),
      /DATABASE_URL: no PostgreSQL answers at 127\.0\.0\.1:\d+ .*Start PostgreSQL there, correct DATABASE_URL, or unset it/,
    ],
    [
      'the database does not exist',
      at((url) => {
        url.pathname = '/travelops_no_such_database';
      }),
      /DATABASE_URL: the database "travelops_no_such_database" does not exist on .*Create it \(createdb /,
    ],
    [
      'the user (or its password) is refused',
      at((url) => {
        url.username = 'travelops_no_such_role';
        url.password = 'wrong';
      }),
      /DATABASE_URL: PostgreSQL at .* refused user "travelops_no_such_role" .*Correct the user or password in DATABASE_URL\./,
    ],
  ];
});
afterAll(() => rm(cwd, { recursive: true, force: true }));

/** The lines of stderr that are not blank. */
const linesOf = (text: string) => text.split('\n').filter((line) => line.trim());

describe('a DATABASE_URL that cannot be used', () => {
  it('the API exits with 1 and one line naming DATABASE_URL and what to do, for each way it fails', async () => {
    for (const [name, url, expected] of cases) {
      const port = await freePort();
      const failed = await startBuiltServer({ PORT: String(port), DATABASE_URL: url }, cwd).then(
        () => 'started',
        (error: Error) => error.message,
      );
      expect(failed, name).toMatch(/^server exited with 1/);
      const stderr = failed.slice(failed.lastIndexOf('\n\n  TravelOps API could not start.'));
      expect(linesOf(stderr), name).toHaveLength(1);
      expect(stderr, name).toMatch(expected);
      expect(stderr, name).not.toContain('wrong');
      expect(failed, name).not.toMatch(/\n\s+at /);
    }
  }, 60_000);

  it('the CLI says the same in one line', async () => {
    for (const [name, url, expected] of cases) {
      const { code, stdout, stderr } = await runCli(
        ['migrate'],
        { DATABASE_URL: url, LOG_LEVEL: 'error' },
        cwd,
      );
      expect(code, name).toBe(1);
      expect(stdout, name).toBe('');
      const lines = linesOf(stderr).filter((line) => !line.startsWith('{'));
      expect(lines, name).toHaveLength(1);
      expect(lines[0], name).toMatch(new RegExp(`^error: ${expected.source}`));
    }
  }, 60_000);
});
