import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('the HTTP adapter', () => {
  it('never reaches the database: use cases come through deps, not @travelops/db, knex or pg', () => {
    const offending = sourceFiles(import.meta.dirname).filter((file) =>
      /from\s+['"](@travelops\/db[^'"]*|knex|pg|@electric-sql\/[^'"]+)['"]/.test(readFileSync(file, 'utf8')),
    );
    expect(offending).toEqual([]);
  });
});
