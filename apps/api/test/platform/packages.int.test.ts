import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// What an integrator installs: the tarballs `pnpm pack` makes (exactly what `pnpm publish` sends).
const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..', '..', '..');
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'travelops-packages-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Packs a workspace package and unpacks it as `node_modules/<name>` of a scratch project. */
async function install(folder: string): Promise<{ path: string; manifest: any }> {
  const out = join(dir, folder);
  await mkdir(out, { recursive: true });
  await run('pnpm', ['pack', '--pack-destination', out], { cwd: join(root, 'packages', folder) });
  const [tarball] = (await readdir(out)).filter((file) => file.endsWith('.tgz'));
  const manifest = JSON.parse(
    (await run('tar', ['-xOzf', join(out, tarball as string), 'package/package.json'])).stdout,
  );
  const path = join(dir, 'project', 'node_modules', ...manifest.name.split('/'));
  await mkdir(path, { recursive: true });
  await run('tar', ['-xzf', join(out, tarball as string), '-C', path, '--strip-components=1']);
  return { path, manifest };
}

/** Runs an ES module in the scratch project, as an integrator's code would. */
const node = (code: string) =>
  run(process.execPath, ['--input-type=module', '-e', code], { cwd: join(dir, 'project') });

function expectPublishable(path: string, manifest: any) {
  expect(manifest.private).toBeUndefined();
  expect(manifest.publishConfig?.access).toBe('public');
  // Only what the tarball holds: no `source` condition pointing at TypeScript left behind.
  expect(manifest.exports).toEqual({ '.': { types: './dist/index.d.ts', import: './dist/index.js' } });
  for (const file of ['dist/index.js', 'dist/index.d.ts', 'README.md']) {
    expect(existsSync(join(path, file)), file).toBe(true);
  }
  expect(existsSync(join(path, 'src'))).toBe(false);
  expect(JSON.stringify(manifest)).not.toMatch(/workspace:|catalog:/);
}

describe('@travelops/webhooks', () => {
  it('installs from its tarball and verifies what it signs', async () => {
    const { path, manifest } = await install('webhooks');
    expectPublishable(path, manifest);
    expect(existsSync(join(path, 'examples', 'receiver.mjs'))).toBe(true);
    const { stdout } = await node(`
      import { sign, verify } from '@travelops/webhooks';
      const body = '{"id":"evt_1"}';
      const header = sign('whsec_test', body, 1700000000);
      console.log(JSON.stringify(verify({ rawBody: body, header, secret: 'whsec_test', now: 1700000100 })));
    `);
    expect(JSON.parse(stdout)).toEqual({ ok: true, timestamp: 1700000000 });
  }, 60_000);
});

describe('@travelops/client', () => {
  it('installs from its tarball with its types, and depends on openapi-fetch alone', async () => {
    const { path, manifest } = await install('client');
    expectPublishable(path, manifest);
    expect(Object.keys(manifest.dependencies)).toEqual(['openapi-fetch']);
    expect(readFileSync(join(path, 'dist', 'index.d.ts'), 'utf8')).toContain('createTravelOpsClient');
    // The registry would install openapi-fetch beside it; here, the workspace's copy.
    await symlink(
      join(root, 'packages', 'client', 'node_modules', 'openapi-fetch'),
      join(dir, 'project', 'node_modules', 'openapi-fetch'),
    );
    const { stdout } = await node(`
      import { createTravelOpsClient } from '@travelops/client';
      const api = createTravelOpsClient({ baseUrl: 'http://127.0.0.1:9', token: 'tops_x' });
      console.log(typeof api.GET, typeof api.POST);
    `);
    expect(stdout.trim()).toBe('function function');
  }, 60_000);
});

describe('pnpm pack:integrators (README: install the packages outside the repository)', () => {
  it('makes the two tarballs, and npm installs them into an empty folder, where both work', async () => {
    const packs = join(dir, 'packs');
    const { stdout } = await run(process.execPath, [join(root, 'scripts', 'pack-integrators.mjs'), packs], {
      cwd: root,
    });
    const tarballs = stdout.trim().split('\n');
    expect(tarballs.map((path) => path.slice(packs.length + 1))).toEqual([
      expect.stringMatching(/^travelops-client-\d+\.\d+\.\d+\.tgz$/),
      expect.stringMatching(/^travelops-webhooks-\d+\.\d+\.\d+\.tgz$/),
    ]);
    // An integrator's empty project, with an npm cache of its own: openapi-fetch comes from the registry.
    const project = join(dir, 'integrator');
    await mkdir(project);
    const env = { PATH: process.env.PATH ?? '', HOME: project };
    await run(
      'npm',
      ['install', '--cache', join(project, '.npm-cache'), '--no-audit', '--no-fund', ...tarballs],
      {
        cwd: project,
        env,
      },
    );
    const { stdout: used } = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { createTravelOpsClient } from '@travelops/client';
         import { sign, verify } from '@travelops/webhooks';
         const body = '{"id":"evt_1"}';
         const header = sign('whsec_test', body, 1700000000);
         const checked = verify({ rawBody: body, header, secret: 'whsec_test', now: 1700000001 });
         console.log(typeof createTravelOpsClient({ baseUrl: 'http://localhost:3000' }).GET, checked.ok);`,
      ],
      { cwd: project, env },
    );
    expect(used.trim()).toBe('function true');
    for (const name of ['client', 'webhooks'])
      expect(existsSync(join(project, 'node_modules', '@travelops', name, 'dist', 'index.d.ts'))).toBe(true);
  }, 180_000);
});
