import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const sources = sourceFiles(import.meta.dirname).map((file) => ({ file, text: readFileSync(file, 'utf8') }));

describe('the jobs package', () => {
  // nodemailer is the SMTP client of guest e-mails, as node:http is the webhooks' HTTP client.
  const ALLOWED = new Set(['@travelops/domain', '@travelops/webhooks', 'nodemailer']);

  it('points inward: only @travelops/domain, @travelops/webhooks and the SMTP client, never db, http, an app or a driver', () => {
    const offending = sources
      .flatMap(({ file, text }) =>
        [...text.matchAll(/from\s+['"]([^'"]+)['"]/g)].map((match) => ({ file, target: match[1] ?? '' })),
      )
      .filter(({ target }) => !target.startsWith('.') && !target.startsWith('node:'))
      .filter(({ target }) => !ALLOWED.has(target));
    expect(offending).toEqual([]);
  });

  it('never reads process.env: the apps parse their environment and pass plain options', () => {
    expect(sources.filter(({ text }) => text.includes('process.env')).map(({ file }) => file)).toEqual([]);
  });
});
