import type { SessionWithMemberships } from './ports.js';
import type { SessionView } from './schemas/access.js';

/** What login and `GET /auth/session` answer: who, where (with which role), the CSRF token, until when. */
export const toSessionView = (session: SessionWithMemberships, csrfToken: string): SessionView => ({
  member: { email: session.email },
  workspaces: session.memberships.map((membership) => ({
    workspaceId: membership.workspaceId,
    slug: membership.workspaceSlug,
    name: membership.workspaceName,
    memberId: membership.memberId,
    role: membership.role,
  })),
  csrfToken,
  expiresAt: session.expiresAt.toISOString(),
});
