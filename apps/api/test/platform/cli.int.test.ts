import { createTestDatabase, type TestDatabase } from '@travelops/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/processes.js';

let db: TestDatabase;
let env: Record<string, string>;
beforeAll(async () => {
  db = await createTestDatabase();
  env = { DATABASE_URL: db.url };
});
afterAll(() => db.drop());

const json = async (args: string[]) => {
  const result = await runCli([...args, '--json'], env);
  return { ...result, body: result.stdout ? JSON.parse(result.stdout) : undefined };
};

describe('operator CLI (decisions §9)', () => {
  it('creates a workspace, a member and a token, and revokes the token, each printing its JSON', async () => {
    const workspace = await json(['workspace:create', '--slug', 'cli-co', '--name', 'CLI Co']);
    expect(workspace.code).toBe(0);
    expect(workspace.body).toEqual({ workspaceId: expect.stringMatching(/^ws_/), slug: 'cli-co' });

    const member = await json([
      'member:create',
      '--workspace',
      'cli-co',
      '--email',
      'ops@cli.co',
      '--password',
      'correct horse battery',
      '--role',
      'OPERATIONS',
    ]);
    expect(member.body).toEqual({ memberId: expect.stringMatching(/^mem_/) });
    const stored = await db.database.knex('members').where({ id: member.body.memberId }).first();
    expect(stored.password_hash).toMatch(/^scrypt\$/);

    const token = await json([
      'token:create',
      '--workspace',
      workspace.body.workspaceId,
      '--role',
      'READ_ONLY',
      '--name',
      'ci',
      '--expires-in-days',
      '7',
    ]);
    expect(token.body).toMatchObject({
      tokenId: expect.stringMatching(/^tok_/),
      token: expect.stringMatching(/^tops_[A-Za-z0-9]{43}$/),
      workspaceId: workspace.body.workspaceId,
      role: 'READ_ONLY',
    });
    const days = (Date.parse(token.body.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    // Only the hash is stored.
    const row = await db.database.knex('api_tokens').where({ id: token.body.tokenId }).first();
    expect(JSON.stringify(row)).not.toContain(token.body.token);

    const revoked = await json(['token:revoke', '--token-id', token.body.tokenId]);
    expect(revoked.body).toEqual({ tokenId: token.body.tokenId, revokedAt: expect.stringMatching(/Z$/) });
  }, 60_000);

  it('workspace:update sets the sender name and the reply-to of guest e-mails; none clears it', async () => {
    await json(['workspace:create', '--slug', 'mail-co', '--name', 'Mail Co']);
    const set = await json([
      'workspace:update',
      '--workspace',
      'mail-co',
      '--name',
      'Fjord Tours',
      '--reply-to',
      'desk@fjord.example',
    ]);
    expect(set.code).toBe(0);
    expect(set.body).toEqual({
      workspaceId: expect.stringMatching(/^ws_/),
      name: 'Fjord Tours',
      replyTo: 'desk@fjord.example',
      customerRetentionMonths: null,
      twoFactorRequired: 'NONE',
    });
    const cleared = await json(['workspace:update', '--workspace', 'mail-co', '--reply-to', 'none']);
    expect(cleared.body).toMatchObject({ name: 'Fjord Tours', replyTo: null });
    const bad = await json(['workspace:update', '--workspace', 'mail-co', '--reply-to', 'not-an-address']);
    expect(bad.code).toBe(1);
    expect(bad.body.error.details).toEqual([{ field: 'reply-to', issue: expect.any(String) }]);
    // Decisions §13: how long customers are kept after their last departure; off clears it.
    const kept = await json([
      'workspace:update',
      '--workspace',
      'mail-co',
      '--customer-retention-months',
      '36',
    ]);
    expect(kept.body).toMatchObject({ replyTo: null, customerRetentionMonths: 36 });
    const off = await json([
      'workspace:update',
      '--workspace',
      'mail-co',
      '--customer-retention-months',
      'off',
    ]);
    expect(off.body).toMatchObject({ customerRetentionMonths: null });
    for (const typed of ['0', 'soon', '1201']) {
      const refused = await json([
        'workspace:update',
        '--workspace',
        'mail-co',
        '--customer-retention-months',
        typed,
      ]);
      expect(refused.code).toBe(1);
      expect(refused.body.error.details).toEqual([
        { field: 'customer-retention-months', issue: expect.any(String) },
      ]);
    }
  }, 60_000);

  it('seeds a demo workspace and reports its ids', async () => {
    const seeded = await json(['seed:demo']);
    expect(seeded.code).toBe(0);
    expect(seeded.body).toMatchObject({
      slug: 'demo',
      role: 'ADMIN',
      token: expect.stringMatching(/^tops_/),
    });
    expect(seeded.body.tours).toHaveLength(3);
    expect(seeded.body.availability.length).toBeGreaterThan(0);
    expect(seeded.body.customers).toHaveLength(3);
  }, 60_000);

  it('migrate applies nothing on an up-to-date database', async () => {
    expect((await json(['migrate'])).body).toEqual({ applied: [] });
  }, 60_000);

  it('refuses bad input with a non-zero exit and a JSON error', async () => {
    const bad = await json([
      'token:create',
      '--workspace',
      'no-such-workspace',
      '--role',
      'ADMIN',
      '--name',
      'x',
    ]);
    expect(bad.code).toBe(1);
    expect(bad.body.error.code).toBe('NOT_FOUND');
    expect(bad.body.error.message).toBe('No workspace has the slug or id "no-such-workspace".');
    expect(bad.body.error.details).toEqual([{ field: 'workspace', issue: 'not_found' }]);
    const role = await json(['token:create', '--workspace', 'demo', '--role', 'GOD', '--name', 'x']);
    expect(role.body.error.details).toEqual([{ field: 'role', issue: 'invalid_enum' }]);
    const slug = await json(['workspace:create', '--slug', 'Bad Slug', '--name', 'x']);
    expect(slug.body.error.details).toEqual([{ field: 'slug', issue: 'invalid_slug' }]);
    const unknown = await runCli(['frobnicate'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Usage: npm run cli -- <command>');
  }, 60_000);
});
