import type { Clock, UnitOfWork } from '../shared/ports.js';
import type { SessionMembership, SessionStore, SessionWithMemberships } from './ports.js';
import type { SessionView } from './schemas.js';

/** Whether the workspace's setting asks this membership's role for a second factor. */
export const needsSecondFactor = (
  membership: Pick<SessionMembership, 'role' | 'twoFactorRequired'>,
): boolean =>
  membership.twoFactorRequired === 'ALL' ||
  (membership.twoFactorRequired === 'ADMINS' && membership.role === 'ADMIN');

/** What login and `GET /auth/session` answer: who, where (with which role), the CSRF token, until when. */
export const toSessionView = (session: SessionWithMemberships, csrfToken: string): SessionView => ({
  member: { email: session.email },
  workspaces: session.memberships.map((membership) => ({
    workspaceId: membership.workspaceId,
    slug: membership.workspaceSlug,
    name: membership.workspaceName,
    memberId: membership.memberId,
    role: membership.role,
    twoFactorRequired: needsSecondFactor(membership),
  })),
  csrfToken,
  expiresAt: session.expiresAt.toISOString(),
  twoFactor: { enabled: session.twoFactorEnabled, passed: session.twoFactorAt !== null },
});

/** Ended sessions are kept a day (for support questions), then the worker deletes them. */
const ENDED_SESSION_RETENTION_MS = 24 * 60 * 60 * 1000;

export function purgeEndedSessions(deps: {
  uow: UnitOfWork<{ sessions: SessionStore }>;
  clock: Clock;
}): Promise<number> {
  return deps.uow.stores.sessions.deleteEndedBefore(
    new Date(deps.clock.now().getTime() - ENDED_SESSION_RETENTION_MS),
  );
}
