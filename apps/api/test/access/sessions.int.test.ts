import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { book } from '../support/booking-fixtures.js';
import {
  createDeparture,
  createTour,
  customerInput,
  expectError,
  type TestWorkspace,
} from '../support/fixtures.js';
import {
  sessionCookieOf,
  startTestApi,
  type TestApi,
  type TestResponse,
  type TestSession,
} from '../support/harness.js';

let t: TestApi;
let ws: TestWorkspace;
beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
});
afterAll(() => t.close());

const login = (email: string, password: string, headers: Record<string, string> = {}) =>
  t.request('POST', '/auth/login', { body: { email, password }, headers });
const current = (session?: Pick<TestSession, 'cookie'>) =>
  t.request('GET', '/auth/session', { headers: session ? { Cookie: session.cookie } : {} });

const withoutRequestId = (res: TestResponse) => ({ ...res.body.error, requestId: undefined });

describe('POST /auth/login', () => {
  it('answers the member, its workspaces with roles, a CSRF token and the expiry, and sets the cookie', async () => {
    const member = await t.createMember(ws.workspaceId, 'OPERATIONS');
    const res = await login(member.email.toUpperCase(), member.password);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      data: {
        member: { email: member.email },
        workspaces: [
          {
            workspaceId: ws.workspaceId,
            slug: ws.slug,
            name: expect.any(String),
            memberId: member.memberId,
            role: 'OPERATIONS',
            twoFactorRequired: false,
          },
        ],
        csrfToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        expiresAt: expect.any(String),
        twoFactor: { enabled: false, passed: false },
      },
    });
    const hours = (Date.parse(res.body.data.expiresAt) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const [cookie, ...others] = res.headers.getSetCookie();
    expect(others).toEqual([]);
    expect(cookie).toMatch(
      /^tops_session=[A-Za-z0-9]{43}; Max-Age=604800; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Lax$/,
    );
    // The cookie holds a secret; the database only its hash.
    const secret = sessionCookieOf(res).split('=')[1] as string;
    const rows = await t.api.database.knex('sessions').select('*');
    expect(JSON.stringify(rows)).not.toContain(secret);
  });

  it('covers every workspace where the e-mail and password match, and no other', async () => {
    const other = await t.createWorkspace('ADMIN');
    const third = await t.createWorkspace('ADMIN');
    const member = await t.createMember(ws.workspaceId, 'READ_ONLY');
    await t.createMember(other.workspaceId, 'ADMIN', { email: member.email, password: member.password });
    await t.createMember(third.workspaceId, 'ADMIN', {
      email: member.email,
      password: 'a different password',
    });
    const res = await login(member.email, member.password);
    expect(res.status).toBe(200);
    const seen = res.body.data.workspaces.map((w: any) => [w.workspaceId, w.role]);
    expect(seen.sort()).toEqual(
      [
        [ws.workspaceId, 'READ_ONLY'],
        [other.workspaceId, 'ADMIN'],
      ].sort(),
    );
  });

  it('a wrong password and an unknown e-mail get the same 401, at the cost of a password check, and no cookie', async () => {
    const member = await t.createMember(ws.workspaceId, 'ADMIN');
    const timed = async (email: string) => {
      const started = performance.now();
      const res = await login(email, 'not the password at all');
      return { res, ms: performance.now() - started };
    };
    // Interleaved, so a burst of load on this shared machine weighs on both kinds alike.
    const wrong: { res: TestResponse; ms: number }[] = [];
    const unknown: { res: TestResponse; ms: number }[] = [];
    for (let i = 0; i < 5; i++) {
      wrong.push(await timed(member.email));
      unknown.push(await timed('nobody@example.com'));
    }
    for (const { res } of [...wrong, ...unknown]) {
      expectError(res, 401, 'UNAUTHENTICATED');
      expect(res.headers.getSetCookie()).toEqual([]);
      expect(withoutRequestId(res)).toEqual(withoutRequestId((wrong[0] as { res: TestResponse }).res));
    }
    expect(withoutRequestId((wrong[0] as { res: TestResponse }).res).message).toBe(
      'The e-mail or password is incorrect.',
    );
    // An unknown e-mail still runs scrypt: it is not answered markedly faster.
    const median = (samples: { ms: number }[]) => samples.map((s) => s.ms).sort((x, y) => x - y)[2] as number;
    expect(median(unknown)).toBeGreaterThan(median(wrong) * 0.4);
  });

  it.each([
    ['no body', undefined],
    ['no password', { email: 'a@example.com' }],
    ['a bad e-mail', { email: 'not-an-email', password: 'x' }],
    ['an unknown field', { email: 'a@example.com', password: 'x', remember: true }],
  ])('%s: 400 VALIDATION_ERROR', async (_label, body) => {
    const res = await t.request('POST', '/auth/login', body === undefined ? {} : { body });
    expectError(res, 400, 'VALIDATION_ERROR');
  });

  it('refuses a form post (415): a cross-site form cannot sign a browser in', async () => {
    const res = await t.request('POST', '/auth/login', {
      rawBody: 'email=a%40example.com&password=x',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
  });

  it('issues a new session id on every sign-in and ends the one the browser had', async () => {
    const member = await t.createMember(ws.workspaceId, 'ADMIN');
    const first = await t.signIn(member.email, member.password);
    const res = await login(member.email, member.password, { Cookie: first.cookie });
    expect(res.status).toBe(200);
    const second = { cookie: sessionCookieOf(res) };
    expect(second.cookie).not.toBe(first.cookie);
    expect(res.body.data.csrfToken).not.toBe(first.csrfToken);
    expectError(await current(first), 401, 'UNAUTHENTICATED');
    expect((await current(second)).status).toBe(200);
  });
});

describe('GET /auth/session and POST /auth/logout', () => {
  it('the session answers what login answered (its CSRF token included)', async () => {
    const session = await t.memberSession(ws.workspaceId, 'READ_ONLY');
    const res = await current(session);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ...session.data, expiresAt: expect.any(String) });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it.each([
    ['no cookie', {}],
    ['an unknown session', { Cookie: `tops_session=${'A'.repeat(43)}` }],
    ['a malformed cookie', { Cookie: 'tops_session=../../etc' }],
  ])('%s: 401 UNAUTHENTICATED', async (_label, headers) => {
    expectError(await t.request('GET', '/auth/session', { headers }), 401, 'UNAUTHENTICATED');
  });

  it('an API token is not a session: 403 on /auth/session', async () => {
    expectError(await t.request('GET', '/auth/session', { token: ws.token }), 403, 'FORBIDDEN');
  });

  it('logout needs the CSRF token, ends the session and clears the cookie', async () => {
    const session = await t.memberSession(ws.workspaceId, 'READ_ONLY');
    expectError(
      await t.request('POST', '/auth/logout', { headers: { Cookie: session.cookie } }),
      403,
      'FORBIDDEN',
    );
    expect((await current(session)).status).toBe(200);
    const res = await t.request('POST', '/auth/logout', { session });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { signedOut: true } });
    expect(res.headers.getSetCookie()[0]).toMatch(/^tops_session=; Path=\/; Expires=Thu, 01 Jan 1970/);
    expectError(await current(session), 401, 'UNAUTHENTICATED');
    expectError(
      await t.request('GET', `/workspaces/${ws.workspaceId}/tours`, { session }),
      401,
      'UNAUTHENTICATED',
    );
  });
});

describe('a session on workspace routes', () => {
  it("acts with its member's role: reads, writes with the CSRF token, and history names the member", async () => {
    const session = await t.memberSession(ws.workspaceId, 'OPERATIONS');
    const base = `/workspaces/${ws.workspaceId}`;
    expect((await t.request('GET', `${base}/customers`, { session })).status).toBe(200);
    const customer = await t.request('POST', `${base}/customers`, { session, body: customerInput() });
    expect(customer.status).toBe(201);
    expectError(await t.request('POST', `${base}/tours`, { session, body: { name: 'x' } }), 403, 'FORBIDDEN');

    const tour = await createTour(t, ws);
    const departure = await createDeparture(t, ws, tour.id);
    const booking = await book(t, ws, departure.id, { paymentMode: 'MANUAL' });
    const confirmed = await t.request('POST', `${base}/bookings/${booking.id}/status`, {
      session,
      body: { status: 'CONFIRMED' },
    });
    expect(confirmed.status).toBe(200);
    const history = await t.request('GET', `${base}/bookings/${booking.id}/history`, { session });
    expect(history.body.data.at(-1).actor).toEqual({ type: 'member', id: session.memberId });
  });

  it('a READ_ONLY member cannot write; another workspace is 403 however high the role there', async () => {
    const session = await t.memberSession(ws.workspaceId, 'READ_ONLY');
    expectError(
      await t.request('POST', `/workspaces/${ws.workspaceId}/customers`, { session, body: customerInput() }),
      403,
      'FORBIDDEN',
    );
    const other = await t.createWorkspace('ADMIN');
    expectError(
      await t.request('GET', `/workspaces/${other.workspaceId}/tours`, { session }),
      403,
      'FORBIDDEN',
    );
  });

  it('an Authorization header wins over the cookie: a bad token is 401 even with a live session', async () => {
    const session = await t.memberSession(ws.workspaceId, 'ADMIN');
    const res = await t.request('GET', `/workspaces/${ws.workspaceId}/tours`, {
      session,
      headers: { Authorization: 'Bearer tops_nope' },
    });
    expectError(res, 401, 'UNAUTHENTICATED');
  });
});

describe('members: a role change or removal ends their sessions at once', () => {
  const membersPath = () => `/workspaces/${ws.workspaceId}/members`;

  it('lists members without secrets', async () => {
    const admin = await t.memberSession(ws.workspaceId, 'ADMIN');
    const res = await t.request('GET', `${membersPath()}?limit=100`, { session: admin });
    expect(res.status).toBe(200);
    expect(res.body.data).toContainEqual({
      id: admin.memberId,
      email: admin.email,
      role: 'ADMIN',
      createdAt: expect.any(String),
    });
    expect(JSON.stringify(res.body)).not.toMatch(/scrypt|password/i);
  });

  it('a changed role ends every session of the member; signing in again gives a new id and the new role', async () => {
    const admin = await t.memberSession(ws.workspaceId, 'ADMIN');
    const member = await t.createMember(ws.workspaceId, 'OPERATIONS');
    const laptop = await t.signIn(member.email, member.password);
    const phone = await t.signIn(member.email, member.password);
    const unchanged = await t.request('PATCH', `${membersPath()}/${member.memberId}`, {
      session: admin,
      body: { role: 'OPERATIONS' },
    });
    expect(unchanged.status).toBe(200);
    expect((await current(laptop)).status).toBe(200);

    const res = await t.request('PATCH', `${membersPath()}/${member.memberId}`, {
      session: admin,
      body: { role: 'READ_ONLY' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: member.memberId, role: 'READ_ONLY' });
    expectError(await current(laptop), 401, 'UNAUTHENTICATED');
    expectError(await current(phone), 401, 'UNAUTHENTICATED');
    const again = await t.signIn(member.email, member.password);
    expect(again.cookie).not.toBe(laptop.cookie);
    expect(again.data.workspaces[0].role).toBe('READ_ONLY');
    expect((await current(admin)).status).toBe(200);
  });

  it('a removed member is signed out everywhere and cannot sign in again', async () => {
    const admin = await t.memberSession(ws.workspaceId, 'ADMIN');
    const member = await t.createMember(ws.workspaceId, 'ADMIN');
    const session = await t.signIn(member.email, member.password);
    const res = await t.request('DELETE', `${membersPath()}/${member.memberId}`, { session: admin });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { id: member.memberId, deleted: true } });
    expectError(await current(session), 401, 'UNAUTHENTICATED');
    expectError(await login(member.email, member.password), 401, 'UNAUTHENTICATED');
    expectError(
      await t.request('DELETE', `${membersPath()}/${member.memberId}`, { session: admin }),
      404,
      'NOT_FOUND',
    );
  });

  it('the last ADMIN can be neither demoted nor removed (422 last_admin)', async () => {
    const lonely = await t.createWorkspace('ADMIN');
    const admin = await t.memberSession(lonely.workspaceId, 'ADMIN');
    const path = `/workspaces/${lonely.workspaceId}/members/${admin.memberId}`;
    expectError(
      await t.request('PATCH', path, { session: admin, body: { role: 'OPERATIONS' } }),
      422,
      'UNPROCESSABLE',
      [{ field: 'role', issue: 'last_admin' }],
    );
    expectError(await t.request('DELETE', path, { session: admin }), 422, 'UNPROCESSABLE', [
      { field: 'role', issue: 'last_admin' },
    ]);
    expect((await current(admin)).status).toBe(200);
  });

  it("another workspace's member is 404", async () => {
    const admin = await t.memberSession(ws.workspaceId, 'ADMIN');
    const other = await t.createWorkspace('ADMIN');
    const stranger = await t.createMember(other.workspaceId, 'READ_ONLY');
    expectError(
      await t.request('PATCH', `${membersPath()}/${stranger.memberId}`, {
        session: admin,
        body: { role: 'ADMIN' },
      }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('login attempts are limited per account and IP together, and per IP', () => {
  let limited: TestApi;
  beforeAll(async () => {
    limited = await startTestApi({
      LOGIN_LIMIT_PER_ACCOUNT: '3',
      LOGIN_LIMIT_PER_IP: '6',
      TRUST_PROXY: 'loopback',
    });
  });
  afterAll(() => limited.close());
  const attempt = (email: string, password: string, ip: string) =>
    limited.request('POST', '/auth/login', { body: { email, password }, headers: { 'X-Forwarded-For': ip } });

  it('per account and IP, whether or not the e-mail exists: the same 429 with Retry-After', async () => {
    const own = await limited.createWorkspace('ADMIN');
    const member = await limited.createMember(own.workspaceId, 'ADMIN');
    for (const [email, ip] of [
      [member.email, '192.0.2.1'],
      ['ghost@example.com', '192.0.2.2'],
    ]) {
      const statuses = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await attempt(email as string, 'wrong password', ip as string)).status);
      expect(statuses).toEqual([401, 401, 401, 429]);
    }
    const refused = await attempt(member.email, member.password, '192.0.2.1');
    expectError(refused, 429, 'RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('x-ratelimit-limit')).toBe('3');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('a stranger cannot lock the owner out: the right password from a clean address still signs in', async () => {
    const own = await limited.createWorkspace('ADMIN');
    const member = await limited.createMember(own.workspaceId, 'ADMIN');
    for (const ip of ['198.51.100.1', '198.51.100.2']) {
      for (let i = 0; i < 4; i++) await attempt(member.email, 'wrong password', ip);
      expect((await attempt(member.email, 'wrong password', ip)).status).toBe(429);
    }
    expect((await attempt(member.email, member.password, '203.0.113.7')).status).toBe(200);
  });

  it('a success clears the account count from that address', async () => {
    const own = await limited.createWorkspace('ADMIN');
    const member = await limited.createMember(own.workspaceId, 'ADMIN');
    expect((await attempt(member.email, 'wrong password', '192.0.2.10')).status).toBe(401);
    expect((await attempt(member.email, 'wrong password', '192.0.2.10')).status).toBe(401);
    expect((await attempt(member.email, member.password, '192.0.2.10')).status).toBe(200);
    expect((await attempt(member.email, 'wrong password', '192.0.2.10')).status).toBe(401);
    expect((await attempt(member.email, 'wrong password', '192.0.2.10')).status).toBe(401);
    expect((await attempt(member.email, member.password, '192.0.2.10')).status).toBe(200);
  });

  it('per IP, across accounts', async () => {
    const statuses = [];
    for (let i = 0; i < 7; i++)
      statuses.push((await attempt(`guess${i}@example.com`, 'x', '198.51.100.200')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429]);
    expect((await attempt('guess0@example.com', 'x', '198.51.100.201')).status).toBe(401);
  });
});

describe('cookies over https', () => {
  it('are Secure when PUBLIC_BASE_URL is https', async () => {
    const secure = await startTestApi({ PUBLIC_BASE_URL: 'https://api.example.com' });
    try {
      const own = await secure.createWorkspace('ADMIN');
      const member = await secure.createMember(own.workspaceId, 'ADMIN');
      const res = await secure.request('POST', '/auth/login', {
        body: { email: member.email, password: member.password },
      });
      expect(res.status).toBe(200);
      expect(res.headers.getSetCookie()[0]).toMatch(/; HttpOnly; Secure; SameSite=Lax$/);
    } finally {
      await secure.close();
    }
  });
});
