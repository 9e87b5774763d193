import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

const contexts = readdirSync(import.meta.dirname, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const packageJson = JSON.parse(readFileSync(join(import.meta.dirname, '../package.json'), 'utf8')) as {
  exports: Record<string, { source: string }>;
};

describe('the domain contexts', () => {
  it('are each a subpath of the package, landing on the index.ts that is their face', () => {
    expect(Object.keys(packageJson.exports).sort()).toEqual(contexts.map((context) => `./${context}`).sort());
    for (const context of contexts) {
      expect(packageJson.exports[`./${context}`]?.source).toBe(`./src/${context}/index.ts`);
    }
  });

  it('name what they export, one by one (no `export *`)', () => {
    const wildcard = contexts.filter((context) =>
      /export\s+(type\s+)?\*/.test(readFileSync(join(import.meta.dirname, context, 'index.ts'), 'utf8')),
    );
    expect(wildcard).toEqual([]);
  });

  // Contexts import each other in cycles (a booking asks for a guest e-mail, which renders the
  // booking): whichever context a program loads first, every value must be initialised when read.
  // Node itself, not vitest's module runner (which hides such errors), loads each one first.
  it.concurrent.each(contexts)('load when %s is the first module a program imports', async (context) => {
    const load = `import('./src/${context}/index.ts').then((face) => console.log(Object.keys(face).length))`;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', load], {
      cwd: join(import.meta.dirname, '..'),
    });
    expect(Number(stdout.trim())).toBeGreaterThan(0);
  });
});
