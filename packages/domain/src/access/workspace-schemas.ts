import * as v from 'valibot';
import { ROLES, TOKEN_ROLES } from '../shared/enums.js';
import { DateTimeSchema, EmailSchema, requiredText, SlugSchema } from '../shared/schemas.js';

export const RoleSchema = v.picklist(ROLES);
/** A member's roles, and RESELLER (tokens only: OCTO selling, see docs/octo.md). */
export const TokenRoleSchema = v.picklist(TOKEN_ROLES);

/** Who must pass a second factor to act in the workspace: no one, its ADMIN members, every member. */
const TWO_FACTOR_REQUIREMENTS = ['NONE', 'ADMINS', 'ALL'] as const;
export const TwoFactorRequirementSchema = v.picklist(TWO_FACTOR_REQUIREMENTS);
export type TwoFactorRequirement = v.InferOutput<typeof TwoFactorRequirementSchema>;

export const WorkspaceSchema = v.object({
  id: v.string(),
  slug: v.string(),
  name: v.string(),
  /** Where guests' replies to the service's e-mails go (the operator's address); null: nowhere. */
  replyToEmail: v.nullable(v.string()),
  /** Customers whose last departure is older than this many months are erased (decisions §13); null: off. */
  customerRetentionMonths: v.nullable(v.number()),
  twoFactorRequired: TwoFactorRequirementSchema,
  createdAt: DateTimeSchema,
});
export type Workspace = v.InferOutput<typeof WorkspaceSchema>;

/**
 * Words the spec's public paths use after `/public/` (`/public/bookings/{token}`,
 * `/public/itineraries/{token}`): no workspace may take them as its slug.
 */
const RESERVED_WORKSPACE_SLUGS = ['bookings', 'itineraries'] as const;

export const CreateWorkspaceSchema = v.strictObject({
  slug: v.pipe(
    SlugSchema,
    v.check((slug) => !(RESERVED_WORKSPACE_SLUGS as readonly string[]).includes(slug), 'reserved_slug'),
  ),
  name: requiredText(200),
});
export type CreateWorkspaceInput = v.InferOutput<typeof CreateWorkspaceSchema>;

/**
 * The operator's settings (CLI `workspace:update`): the sender name of guest e-mails, their
 * reply-to, and how long customers are kept after their last departure.
 */
export const UpdateWorkspaceSchema = v.strictObject({
  name: v.optional(requiredText(200)),
  replyToEmail: v.optional(v.nullable(EmailSchema)),
  customerRetentionMonths: v.optional(
    v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1200))),
  ),
  twoFactorRequired: v.optional(TwoFactorRequirementSchema),
});
export type UpdateWorkspaceInput = v.InferOutput<typeof UpdateWorkspaceSchema>;

export const CreateMemberSchema = v.strictObject({
  email: EmailSchema,
  password: v.pipe(v.string(), v.minLength(12), v.maxLength(200)),
  role: RoleSchema,
});

/** An API token as stored: only the hash of its secret is kept. */
export interface ApiTokenRecord {
  id: string;
  workspaceId: string;
  role: v.InferOutput<typeof TokenRoleSchema>;
  name: string;
  prefix: string;
  secretHash: string;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
}

export interface MemberRecord {
  id: string;
  workspaceId: string;
  email: string;
  role: v.InferOutput<typeof RoleSchema>;
  passwordHash: string;
  createdAt: Date;
}
