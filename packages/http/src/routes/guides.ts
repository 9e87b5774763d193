import {
  CreateGuideSchema,
  CreateTimeOffSchema,
  createGuide,
  createTimeOff,
  DateRangeQuerySchema,
  deleteTimeOff,
  GuideScheduleQuerySchema,
  GuideScheduleSchema,
  GuideSchema,
  getGuideSchedule,
  ListGuidesQuerySchema,
  listGuides,
  listTimeOff,
  TimeOffSchema,
  UpdateGuideSchema,
  updateGuide,
} from '@travelops/domain/operations';
import { ok } from '@travelops/domain/shared';
import { DeletedSchema } from '@travelops/domain/webhooks';
import * as v from 'valibot';
import { defineRoute, toReply } from '../route.js';
import { PathId, WorkspaceParams } from './params.js';

const tags = ['Guides'];
const GuideParams = v.object({ workspaceId: PathId, memberId: PathId });

export const guideRoutes = [
  defineRoute({
    operationId: 'listGuides',
    method: 'get',
    path: '/workspaces/{workspaceId}/guides',
    summary: 'List guides, newest first',
    description:
      'Guides are workspace members with a guide profile. `activeOnly` (default true) hides members whose profile has `isGuide: false`. `email` is staff contact data: shown to signed-in members and ADMIN tokens, null to READ_ONLY and OPERATIONS tokens.',
    tags,
    access: { permission: 'read' },
    params: WorkspaceParams,
    query: ListGuidesQuerySchema,
    success: { status: 200, description: 'A page of guides.', schema: GuideSchema, list: 'paginated' },
    errors: [],
    async handle({ use, params, query, principal, pageRequest, pageReply }) {
      // Staff e-mail: members signed in (the console) and ADMIN tokens only.
      const withEmail = principal?.kind === 'session' || principal?.role === 'ADMIN';
      const options = { activeOnly: query.activeOnly ?? true, withEmail };
      const page = await listGuides(use, params.workspaceId, options, pageRequest());
      return ok(pageReply(page));
    },
  }),
  defineRoute({
    operationId: 'createGuide',
    method: 'post',
    path: '/workspaces/{workspaceId}/guides',
    summary: 'Make a member a guide',
    description:
      'Added beyond the spec. ADMIN (`members:manage`). Gives the member a guide profile; an unknown member is 422 `not_found` on `memberId`, a member who already has one 409 `already_exists`.',
    tags,
    access: { permission: 'members:manage' },
    params: WorkspaceParams,
    body: CreateGuideSchema,
    idempotent: true,
    success: { status: 201, description: 'The guide.', schema: GuideSchema },
    errors: [409, 422],
    async handle({ use, params, body }) {
      return toReply(await createGuide(use, params.workspaceId, body));
    },
  }),
  defineRoute({
    operationId: 'updateGuide',
    method: 'patch',
    path: '/workspaces/{workspaceId}/guides/{memberId}',
    summary: "Change a guide's profile",
    description:
      'Added beyond the spec. ADMIN. `isGuide: false` retires the guide: they can no longer be assigned (422 `not_a_guide`); existing assignments stay.',
    tags,
    access: { permission: 'members:manage' },
    params: GuideParams,
    body: UpdateGuideSchema,
    success: { status: 200, description: 'The guide.', schema: GuideSchema },
    errors: [404],
    async handle({ use, params, body }) {
      return toReply(await updateGuide(use, params.workspaceId, params.memberId, body));
    },
  }),
  defineRoute({
    operationId: 'getGuideSchedule',
    method: 'get',
    path: '/workspaces/{workspaceId}/guides/{memberId}/schedule',
    summary: "A guide's departures and time off",
    description:
      "Added beyond the spec (docs/resources.md). The departures the member works on, as guide or driver (not cancelled), and their time off, overlapping the UTC days `from` to `to` (inclusive, at most 62 days; 400 `range_too_long`), each by start. Departures carry their tour's name and local start.",
    tags,
    access: { permission: 'read' },
    params: GuideParams,
    query: GuideScheduleQuerySchema,
    success: { status: 200, description: "The guide's schedule.", schema: GuideScheduleSchema },
    errors: [404],
    async handle({ use, params, query }) {
      return toReply(await getGuideSchedule(use, params.workspaceId, params.memberId, query));
    },
  }),
  defineRoute({
    operationId: 'listGuideTimeOff',
    method: 'get',
    path: '/workspaces/{workspaceId}/guides/{memberId}/time-off',
    summary: "List a guide's time off by start",
    description: '`from` and `to` (calendar dates, inclusive) keep periods overlapping those days.',
    tags,
    access: { permission: 'read' },
    params: GuideParams,
    query: DateRangeQuerySchema,
    success: {
      status: 200,
      description: 'A page of time-off periods.',
      schema: TimeOffSchema,
      list: 'paginated',
    },
    errors: [404],
    async handle({ use, params, query, pageRequest, pageReply }) {
      const { from, to } = query;
      const range = { ...(from && { from }), ...(to && { to }) };
      const page = await listTimeOff(use, params.workspaceId, params.memberId, range, pageRequest());
      return page.ok ? ok(pageReply(page.value)) : page;
    },
  }),
  defineRoute({
    operationId: 'createGuideTimeOff',
    method: 'post',
    path: '/workspaces/{workspaceId}/guides/{memberId}/time-off',
    summary: 'Record time off for a guide',
    description:
      'Added beyond the spec. OPERATIONS or ADMIN (`availability:write`: schedulers manage it). `endsAt` must be after `startsAt` (422 `before_start`). While it lasts the guide cannot be assigned to an overlapping departure; assignments made earlier are not undone.',
    tags,
    access: { permission: 'availability:write' },
    params: GuideParams,
    body: CreateTimeOffSchema,
    idempotent: true,
    success: { status: 201, description: 'The time off.', schema: TimeOffSchema },
    errors: [404, 422],
    async handle({ use, params, body }) {
      return toReply(await createTimeOff(use, params.workspaceId, params.memberId, body));
    },
  }),
  defineRoute({
    operationId: 'deleteGuideTimeOff',
    method: 'delete',
    path: '/workspaces/{workspaceId}/guides/{memberId}/time-off/{timeOffId}',
    summary: 'Cancel time off',
    description: 'Added beyond the spec.',
    tags,
    access: { permission: 'availability:write' },
    params: v.object({ workspaceId: PathId, memberId: PathId, timeOffId: PathId }),
    success: { status: 200, description: 'The deleted id.', schema: DeletedSchema },
    errors: [404],
    async handle({ use, params }) {
      return toReply(await deleteTimeOff(use, params.workspaceId, params.memberId, params.timeOffId));
    },
  }),
];
