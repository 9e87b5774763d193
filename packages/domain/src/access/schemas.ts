import * as v from 'valibot';
import { DateTimeSchema, EmailSchema, requiredText } from '../shared/schemas.js';
import { RoleSchema, TokenRoleSchema } from './workspace-schemas.js';

/** `POST /auth/login`. The password's bounds keep the KDF's input bounded; they are not a policy. */
export const LoginSchema = v.strictObject({
  email: EmailSchema,
  password: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
});

/** One workspace a session may act in, with the member's role there. */
export const SessionWorkspaceSchema = v.object({
  workspaceId: v.string(),
  slug: v.string(),
  name: v.string(),
  memberId: v.string(),
  role: RoleSchema,
});

/** What login and `GET /auth/session` answer (decisions §6). */
export const SessionSchema = v.object({
  member: v.object({ email: v.string() }),
  workspaces: v.array(SessionWorkspaceSchema),
  /** Send it as `X-CSRF-Token` on every POST, PATCH and DELETE made with the session. */
  csrfToken: v.string(),
  expiresAt: DateTimeSchema,
});
export type SessionView = v.InferOutput<typeof SessionSchema>;

export const SignedOutSchema = v.object({ signedOut: v.literal(true) });

export const MemberSchema = v.object({
  id: v.string(),
  email: v.string(),
  role: RoleSchema,
  createdAt: DateTimeSchema,
});
export type MemberView = v.InferOutput<typeof MemberSchema>;

export const UpdateMemberSchema = v.strictObject({ role: RoleSchema });

/** An API key as listed: never its secret, which exists only in the create answer. */
export const ApiKeySchema = v.object({
  id: v.string(),
  name: v.string(),
  /** A member's role, or RESELLER: a reseller connection that sells through `/octo/*` only. */
  role: TokenRoleSchema,
  /** The secret's first characters, to tell keys apart (`tops_AbC1234`). */
  prefix: v.string(),
  /** Updated at most once a minute. */
  lastUsedAt: v.nullable(DateTimeSchema),
  expiresAt: v.nullable(DateTimeSchema),
  revokedAt: v.nullable(DateTimeSchema),
  createdAt: DateTimeSchema,
});
export type ApiKeyView = v.InferOutput<typeof ApiKeySchema>;

export const ApiKeyWithSecretSchema = v.object({
  ...ApiKeySchema.entries,
  /** `tops_...`: shown in this answer only; only its hash is stored. */
  secret: v.string(),
});

export const CreateApiKeySchema = v.strictObject({
  name: requiredText(100),
  /** RESELLER: one OCTO reseller connection (docs/octo.md); name it after the reseller. */
  role: TokenRoleSchema,
  expiresInDays: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(3650))),
});
