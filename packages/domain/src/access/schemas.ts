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
  /** The workspace requires a second factor of this role: without one passed, it answers 403. */
  twoFactorRequired: v.boolean(),
});

/** What login and `GET /auth/session` answer (decisions §6). */
export const SessionSchema = v.object({
  member: v.object({ email: v.string() }),
  workspaces: v.array(SessionWorkspaceSchema),
  /** Send it as `X-CSRF-Token` on every POST, PATCH and DELETE made with the session. */
  csrfToken: v.string(),
  expiresAt: DateTimeSchema,
  /** Whether this e-mail has a second factor turned on, and whether this sign-in passed it. */
  twoFactor: v.object({ enabled: v.boolean(), passed: v.boolean() }),
});
export type SessionView = v.InferOutput<typeof SessionSchema>;

/** `POST /auth/login` when the e-mail has a second factor: no session yet, send a code. */
export const TwoFactorRequiredSchema = v.object({ twoFactorRequired: v.literal(true) });

/** A code of the authenticator app: six digits. */
const TotpCodeSchema = v.pipe(v.string(), v.regex(/^\d{6}$/, 'invalid_code'));
/** A recovery code as shown (`xxxxx-xxxxx`, any case; spaces and dashes are ignored). */
const RecoveryCodeSchema = v.pipe(v.string(), v.minLength(10), v.maxLength(40));

/** `POST /auth/login/2fa`: a code of the app, or one recovery code. */
export const SecondFactorSchema = v.union([
  v.strictObject({ code: TotpCodeSchema }),
  v.strictObject({ recoveryCode: RecoveryCodeSchema }),
]);
export type SecondFactorInput = v.InferOutput<typeof SecondFactorSchema>;

/** `POST /auth/2fa/confirm` and `/auth/2fa/disable`: a code of the app. */
export const TwoFactorCodeSchema = v.strictObject({ code: TotpCodeSchema });

/** `POST /auth/2fa/enrol`: what the authenticator app needs (the QR code encodes `otpauthUrl`). */
export const TwoFactorEnrolmentSchema = v.object({ secret: v.string(), otpauthUrl: v.string() });

/** `POST /auth/2fa/confirm`: the recovery codes, shown this once. */
export const RecoveryCodesSchema = v.object({ recoveryCodes: v.array(v.string()) });

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
