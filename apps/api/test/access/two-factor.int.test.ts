import { totpCode } from '@travelops/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceUpdate } from '../../src/cli/commands.js';
import { detail, expectError } from '../support/fixtures.js';
import { sessionCookieOf, startTestApi, type TestApi, type TestSession } from '../support/harness.js';

let t: TestApi;
let workspaceId: string;
beforeAll(async () => {
  // Code attempts count with password attempts: five per e-mail and address in the window.
  t = await startTestApi({ LOGIN_LIMIT_PER_ACCOUNT: '6' });
  ({ workspaceId } = await t.createWorkspace('ADMIN'));
});
afterAll(() => t.close());

const STEP_MS = 30_000;
const codeAt = (secret: string, offsetSteps = 0) =>
  totpCode(secret, new Date(Date.now() + offsetSteps * STEP_MS));

/** The `tops_2fa` cookie a password step set, as a `Cookie` header value. */
function challengeCookieOf(res: { headers: Headers }): string {
  const cookie = res.headers.getSetCookie().find((value) => value.startsWith('tops_2fa='));
  if (!cookie) throw new Error('no challenge cookie was set');
  expect(cookie).toMatch(/HttpOnly/i);
  expect(cookie).toMatch(/Path=\/auth/);
  return cookie.split(';')[0] as string;
}

const passwordStep = (email: string, password: string) =>
  t.request('POST', '/auth/login', { body: { email, password } });

const secondStep = (challenge: string, body: unknown) =>
  t.request('POST', '/auth/login/2fa', { body, headers: { Cookie: challenge } });

/** A member with two-factor sign-in on: its session (which passed it), secret and recovery codes. */
async function enrolled(role: 'ADMIN' | 'OPERATIONS' = 'ADMIN') {
  const member = await t.createMember(workspaceId, role);
  const session = await t.signIn(member.email, member.password);
  const enrolment = await t.request('POST', '/auth/2fa/enrol', { session });
  expect(enrolment.status, JSON.stringify(enrolment.body)).toBe(200);
  const { secret } = enrolment.body.data;
  const confirmCode = codeAt(secret);
  const confirmed = await t.request('POST', '/auth/2fa/confirm', { session, body: { code: confirmCode } });
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  return {
    ...member,
    session,
    secret,
    confirmCode,
    recoveryCodes: confirmed.body.data.recoveryCodes as string[],
  };
}

describe('turning two-factor sign-in on', () => {
  it('enrol answers a TOTP secret and its otpauth URL; a wrong code is 422; a right one turns it on with ten recovery codes', async () => {
    const member = await t.createMember(workspaceId, 'OPERATIONS');
    const session = await t.signIn(member.email, member.password);
    expect(session.data.twoFactor).toEqual({ enabled: false, passed: false });
    expectError(
      await t.request('POST', '/auth/2fa/confirm', { session, body: { code: '123456' } }),
      422,
      'UNPROCESSABLE',
      [detail('code', 'no_pending_enrolment')],
    );
    const enrolment = await t.request('POST', '/auth/2fa/enrol', { session });
    expect(enrolment.status).toBe(200);
    const { secret, otpauthUrl } = enrolment.body.data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(otpauthUrl);
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe(`/TravelOps:${member.email}`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      secret,
      issuer: 'TravelOps',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
    const wrong = codeAt(secret, 5);
    expectError(
      await t.request('POST', '/auth/2fa/confirm', { session, body: { code: wrong } }),
      422,
      'UNPROCESSABLE',
      [detail('code', 'incorrect_code')],
    );
    expectError(
      await t.request('POST', '/auth/2fa/confirm', { session, body: { code: 'abcdef' } }),
      400,
      'VALIDATION_ERROR',
      [detail('code', 'invalid_code')],
    );
    const confirmed = await t.request('POST', '/auth/2fa/confirm', {
      session,
      body: { code: codeAt(secret) },
    });
    expect(confirmed.status).toBe(200);
    const codes: string[] = confirmed.body.data.recoveryCodes;
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(new Set(codes).size).toBe(10);
    const now = await t.request('GET', '/auth/session', { session });
    expect(now.body.data.twoFactor).toEqual({ enabled: true, passed: true });
    // On already: a new enrolment is refused; the stored codes are hashes, never the codes.
    expectError(await t.request('POST', '/auth/2fa/enrol', { session }), 409, 'CONFLICT', [
      detail('twoFactor', 'already_enabled'),
    ]);
    const stored = await t.api.database.knex('two_factor').where({ email: member.email }).first();
    expect(JSON.stringify(stored)).not.toContain(codes[0]?.replace('-', ''));
    expect(stored.recovery_code_hashes).toHaveLength(10);
  });
});

describe('signing in with a second factor', () => {
  it('the password answers twoFactorRequired with no session; the code completes the sign-in; a code works once', async () => {
    const member = await enrolled();
    const first = await passwordStep(member.email, member.password);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ twoFactorRequired: true });
    expect(first.headers.getSetCookie().some((value) => value.startsWith('tops_session='))).toBe(false);
    const challenge = challengeCookieOf(first);

    expect((await secondStep(challenge, { code: codeAt(member.secret, 3) })).status).toBe(401);
    // The code the confirm used does not sign in again.
    const replay = await secondStep(challenge, { code: member.confirmCode });
    expect(replay.status).toBe(401);
    expect(replay.body.error.message).toContain('used already');
    const next = await secondStep(challenge, { code: codeAt(member.secret, 1) });
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    expect(next.body.data.twoFactor).toEqual({ enabled: true, passed: true });
    expect(next.body.data.workspaces.map((w: any) => w.workspaceId)).toEqual([workspaceId]);
    const cookie = sessionCookieOf(next);
    const session: TestSession = { cookie, csrfToken: next.body.data.csrfToken, data: next.body.data };
    expect((await t.request('GET', `/workspaces/${workspaceId}/tours`, { session })).status).toBe(200);
    // The challenge is cleared once used.
    expect(next.headers.getSetCookie().some((value) => /^tops_2fa=;/.test(value))).toBe(true);
  });

  it('a recovery code signs in once (any case, with or without its dash); a second use is 401', async () => {
    const member = await enrolled();
    const [recovery] = member.recoveryCodes as [string];
    const challenge = challengeCookieOf(await passwordStep(member.email, member.password));
    const used = await secondStep(challenge, { recoveryCode: recovery.toUpperCase().replace('-', ' ') });
    expect(used.status, JSON.stringify(used.body)).toBe(200);
    expect(used.body.data.twoFactor.passed).toBe(true);
    const again = await secondStep(challenge, { recoveryCode: recovery });
    expect(again.status).toBe(401);
    expect(again.body.error.message).toContain('recovery code');
  });

  it('five requests with one recovery code at once: exactly one signs in', async () => {
    const member = await enrolled();
    const [, recovery] = member.recoveryCodes as [string, string];
    const challenge = challengeCookieOf(await passwordStep(member.email, member.password));
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => secondStep(challenge, { recoveryCode: recovery })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401, 401, 401, 401]);
    const stored = await t.api.database.knex('two_factor').where({ email: member.email }).first();
    expect(stored.recovery_code_hashes).toHaveLength(9);
  });

  it('five requests with one code at once: exactly one signs in', async () => {
    const member = await enrolled();
    const challenge = challengeCookieOf(await passwordStep(member.email, member.password));
    const code = codeAt(member.secret, 1);
    const answers = await Promise.all(Array.from({ length: 5 }, () => secondStep(challenge, { code })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401, 401, 401, 401]);
  });

  it('no waiting sign-in, a forged or altered challenge: 401; bad bodies: 400 with the field', async () => {
    const member = await enrolled();
    const code = codeAt(member.secret, 1);
    expect((await t.request('POST', '/auth/login/2fa', { body: { code } })).status).toBe(401);
    const challenge = challengeCookieOf(await passwordStep(member.email, member.password));
    const [name, value = ''] = challenge.split('=');
    const [body = '', mac = ''] = value.split('.');
    const forgedBody = Buffer.from(
      JSON.stringify({
        ...JSON.parse(Buffer.from(body, 'base64url').toString()),
        x: Date.now() + 86_400_000,
      }),
    ).toString('base64url');
    expect((await secondStep(`${name}=${forgedBody}.${mac}`, { code })).status).toBe(401);
    expect((await secondStep(`${name}=${body}.${mac.slice(1)}x`, { code })).status).toBe(401);
    expectError(await secondStep(challenge, { code: '12345' }), 400, 'VALIDATION_ERROR');
    expectError(await secondStep(challenge, { code, recoveryCode: 'abcde-fghij' }), 400, 'VALIDATION_ERROR');
  });

  it('code attempts count with password attempts: past the limit, 429 with Retry-After', async () => {
    const member = await enrolled();
    const challenge = challengeCookieOf(await passwordStep(member.email, member.password));
    // The password step succeeded (its count cleared); five wrong codes spend the rest.
    const wrong = codeAt(member.secret, 4);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await secondStep(challenge, { code: wrong })).status);
    expect(statuses.slice(0, 6)).toEqual([401, 401, 401, 401, 401, 401]);
    const refused = await secondStep(challenge, { code: codeAt(member.secret, 1) });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(statuses[6]).toBe(429);
  });

  it('turning it off needs a current code; afterwards the password alone signs in', async () => {
    const member = await enrolled('OPERATIONS');
    expectError(
      await t.request('POST', '/auth/2fa/disable', {
        session: member.session,
        body: { code: codeAt(member.secret, 5) },
      }),
      422,
      'UNPROCESSABLE',
      [detail('code', 'incorrect_code')],
    );
    const off = await t.request('POST', '/auth/2fa/disable', {
      session: member.session,
      body: { code: codeAt(member.secret, 1) },
    });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    const signedIn = await passwordStep(member.email, member.password);
    expect(signedIn.body.data.twoFactor).toEqual({ enabled: false, passed: false });
  });
});

describe("a workspace's requirement", () => {
  it('ADMINS: an ADMIN session without a second factor is 403 there until it turns it on; other roles go on', async () => {
    const ws = await t.createWorkspace('ADMIN');
    const admin = await t.createMember(ws.workspaceId, 'ADMIN');
    const operations = await t.createMember(ws.workspaceId, 'OPERATIONS');
    const updated = await workspaceUpdate(t.commandDeps, {
      workspace: ws.workspaceId,
      'two-factor-required': 'ADMINS',
    });
    expect(updated).toMatchObject({ ok: true, value: { twoFactorRequired: 'ADMINS' } });
    expect(
      await workspaceUpdate(t.commandDeps, { workspace: ws.workspaceId, 'two-factor-required': 'SOME' }),
    ).toMatchObject({ ok: false, error: { details: [{ field: 'two-factor-required' }] } });

    const adminSession = await t.signIn(admin.email, admin.password);
    const refused = await t.request('GET', `/workspaces/${ws.workspaceId}/tours`, { session: adminSession });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain('POST /auth/2fa/enrol');
    const opsSession = await t.signIn(operations.email, operations.password);
    expect(
      (await t.request('GET', `/workspaces/${ws.workspaceId}/tours`, { session: opsSession })).status,
    ).toBe(200);
    // Turning it on in this session lets the session in.
    const { secret } = (await t.request('POST', '/auth/2fa/enrol', { session: adminSession })).body.data;
    expect(
      (
        await t.request('POST', '/auth/2fa/confirm', {
          session: adminSession,
          body: { code: codeAt(secret) },
        })
      ).status,
    ).toBe(200);
    expect(
      (await t.request('GET', `/workspaces/${ws.workspaceId}/tours`, { session: adminSession })).status,
    ).toBe(200);
    // ALL: every role.
    await workspaceUpdate(t.commandDeps, { workspace: ws.workspaceId, 'two-factor-required': 'ALL' });
    expect(
      (await t.request('GET', `/workspaces/${ws.workspaceId}/tours`, { session: opsSession })).status,
    ).toBe(403);
    // API tokens are not sessions: the requirement is about people signing in.
    expect((await t.request('GET', `/workspaces/${ws.workspaceId}/tours`, { token: ws.token })).status).toBe(
      200,
    );
  });
});
