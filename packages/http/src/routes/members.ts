import {
  changeMemberRole,
  listMembers,
  MemberSchema,
  removeMember,
  toMemberView,
  UpdateMemberSchema,
} from '@travelops/domain/access';
import { ok, PageQuerySchema } from '@travelops/domain/shared';
import { DeletedSchema } from '@travelops/domain/webhooks';
import * as v from 'valibot';
import { defineRoute, toReply } from '../route.js';
import { PathId, WorkspaceParams } from './params.js';

const tags = ['Members'];
const MemberParams = v.object({ workspaceId: PathId, memberId: PathId });

export const memberRoutes = [
  defineRoute({
    operationId: 'listMembers',
    method: 'get',
    path: '/workspaces/{workspaceId}/members',
    summary: "List the workspace's members, newest first",
    description: 'Session only (any role). Members are added with the operator CLI (`member:create`).',
    tags,
    access: { permission: 'read', sessionOnly: true },
    params: WorkspaceParams,
    query: PageQuerySchema,
    success: { status: 200, description: 'A page of members.', schema: MemberSchema, list: 'paginated' },
    errors: [],
    async handle({ use, params, pageRequest, pageReply }) {
      const page = await listMembers(use, params.workspaceId, pageRequest());
      return ok(pageReply({ ...page, items: page.items.map(toMemberView) }));
    },
  }),
  defineRoute({
    operationId: 'updateMember',
    method: 'patch',
    path: '/workspaces/{workspaceId}/members/{memberId}',
    summary: "Change a member's role",
    description:
      "Session only, ADMIN. A changed role ends every session of the member at once, on every instance (requests in flight included): they sign in again and get a new session id. The workspace's last ADMIN cannot be demoted (422 `last_admin`).",
    tags,
    access: { permission: 'members:manage', sessionOnly: true },
    params: MemberParams,
    body: UpdateMemberSchema,
    success: { status: 200, description: 'The member.', schema: MemberSchema },
    errors: [404, 422],
    async handle({ use, params, body }) {
      const changed = await changeMemberRole(use, params.workspaceId, params.memberId, body.role);
      return changed.ok ? ok({ data: toMemberView(changed.value) }) : changed;
    },
  }),
  defineRoute({
    operationId: 'deleteMember',
    method: 'delete',
    path: '/workspaces/{workspaceId}/members/{memberId}',
    summary: 'Remove a member',
    description:
      "Session only, ADMIN. Ends every session of the member at once. The workspace's last ADMIN cannot be removed (422 `last_admin`).",
    tags,
    access: { permission: 'members:manage', sessionOnly: true },
    params: MemberParams,
    success: { status: 200, description: 'Removed.', schema: DeletedSchema },
    errors: [404, 422],
    async handle({ use, params }) {
      return toReply(await removeMember(use, params.workspaceId, params.memberId));
    },
  }),
];
