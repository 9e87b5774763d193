import { addMember, issueApiToken, revokeApiToken } from '@travelops/auth';
import type { Repositories } from '@travelops/db';
import {
  CreateMemberSchema,
  CreateWorkspaceSchema,
  createWorkspace,
  findWorkspace,
  TokenRoleSchema,
  UpdateWorkspaceSchema,
  updateWorkspace,
} from '@travelops/domain/access';
import {
  type Clock,
  type DomainError,
  fail,
  ok,
  parseInput,
  type Result,
  type UnitOfWork,
} from '@travelops/domain/shared';
import * as v from 'valibot';

export interface CommandDeps {
  uow: UnitOfWork<Repositories>;
  clock: Clock;
}

type Args = Record<string, string | undefined>;

const missing = (field: string): DomainError => ({
  code: 'VALIDATION_ERROR',
  message: `--${field} is required.`,
  details: [{ field, issue: 'required' }],
});

function required(args: Args, ...names: string[]): Result<Record<string, string>> {
  for (const name of names) if (!args[name]) return fail(missing(name));
  return ok(args as Record<string, string>);
}

async function workspaceOf(deps: CommandDeps, idOrSlug: string) {
  const workspace = await findWorkspace(deps, idOrSlug);
  if (workspace) return ok(workspace);
  const error: DomainError = {
    code: 'NOT_FOUND',
    message: `No workspace has the slug or id "${idOrSlug}".`,
    details: [{ field: 'workspace', issue: 'not_found' }],
  };
  return fail(error);
}

export async function workspaceCreate(deps: CommandDeps, args: Args) {
  const input = parseInput(CreateWorkspaceSchema, { slug: args.slug, name: args.name });
  if (!input.ok) return input;
  const created = await createWorkspace(deps, input.value);
  return created.ok ? ok({ workspaceId: created.value.id, slug: created.value.slug }) : created;
}

/** Months as typed (`off` or `none`: no limit), then the schema's own bounds. */
const RetentionMonths = v.union([
  v.pipe(
    v.picklist(['off', 'none']),
    v.transform(() => null),
  ),
  v.pipe(v.string(), v.regex(/^\d{1,5}$/, 'not_integer'), v.transform(Number)),
]);

/**
 * The workspace's name (the sender name of guest e-mails), the reply-to of those e-mails and how
 * many months customers are kept after their last departure (decisions §13), and who must
 * sign in with a second factor.
 */
export async function workspaceUpdate(deps: CommandDeps, args: Args) {
  const given = required(args, 'workspace');
  if (!given.ok) return given;
  const replyTo = args['reply-to'];
  const retention = args['customer-retention-months'];
  // Each flag is checked under its own name, so an error names what was typed.
  const name =
    args.name === undefined ? null : parseInput(UpdateWorkspaceSchema.entries.name, args.name, 'name');
  if (name && !name.ok) return name;
  const replyToEmail =
    replyTo === undefined
      ? null
      : parseInput(
          UpdateWorkspaceSchema.entries.replyToEmail,
          replyTo === 'none' || replyTo === '' ? null : replyTo,
          'reply-to',
        );
  if (replyToEmail && !replyToEmail.ok) return replyToEmail;
  const typedMonths =
    retention === undefined ? null : parseInput(RetentionMonths, retention, 'customer-retention-months');
  if (typedMonths && !typedMonths.ok) return typedMonths;
  const months = typedMonths?.ok
    ? parseInput(
        UpdateWorkspaceSchema.entries.customerRetentionMonths,
        typedMonths.value,
        'customer-retention-months',
      )
    : null;
  if (months && !months.ok) return months;
  const twoFactor =
    args['two-factor-required'] === undefined
      ? null
      : parseInput(
          UpdateWorkspaceSchema.entries.twoFactorRequired,
          args['two-factor-required'],
          'two-factor-required',
        );
  if (twoFactor && !twoFactor.ok) return twoFactor;
  const input = {
    ...(name?.ok && { name: name.value }),
    ...(replyToEmail?.ok && { replyToEmail: replyToEmail.value }),
    ...(months?.ok && { customerRetentionMonths: months.value }),
    ...(twoFactor?.ok && { twoFactorRequired: twoFactor.value }),
  };
  const workspace = await workspaceOf(deps, given.value.workspace as string);
  if (!workspace.ok) return workspace;
  const updated = await updateWorkspace(deps, workspace.value.id, input);
  return updated.ok
    ? ok({
        workspaceId: updated.value.id,
        name: updated.value.name,
        replyTo: updated.value.replyToEmail,
        customerRetentionMonths: updated.value.customerRetentionMonths,
        twoFactorRequired: updated.value.twoFactorRequired,
      })
    : updated;
}

export async function memberCreate(deps: CommandDeps, args: Args) {
  const given = required(args, 'workspace');
  if (!given.ok) return given;
  const input = parseInput(CreateMemberSchema, {
    email: args.email,
    password: args.password,
    role: args.role,
  });
  if (!input.ok) return input;
  const workspace = await workspaceOf(deps, given.value.workspace as string);
  if (!workspace.ok) return workspace;
  const member = await addMember(deps, { workspaceId: workspace.value.id, ...input.value });
  return member.ok ? ok({ memberId: member.value.id }) : member;
}

const ExpiresInDays = v.pipe(
  v.string(),
  v.regex(/^\d{1,5}$/, 'not_integer'),
  v.transform(Number),
  v.minValue(1),
);

export async function tokenCreate(deps: CommandDeps, args: Args) {
  const given = required(args, 'workspace', 'role', 'name');
  if (!given.ok) return given;
  // RESELLER too: an OCTO reseller connection (docs/octo.md).
  const role = parseInput(TokenRoleSchema, args.role, 'role');
  if (!role.ok) return role;
  const days =
    args['expires-in-days'] === undefined
      ? null
      : parseInput(ExpiresInDays, args['expires-in-days'], 'expires-in-days');
  if (days && !days.ok) return days;
  const workspace = await workspaceOf(deps, given.value.workspace as string);
  if (!workspace.ok) return workspace;
  const { token, secret } = await issueApiToken(deps, {
    workspaceId: workspace.value.id,
    role: role.value,
    name: given.value.name as string,
    ...(days?.ok && { expiresInDays: days.value }),
  });
  return ok({
    tokenId: token.id,
    token: secret,
    workspaceId: token.workspaceId,
    role: token.role,
    expiresAt: token.expiresAt?.toISOString() ?? null,
  });
}

export async function tokenRevoke(deps: CommandDeps, args: Args) {
  const given = required(args, 'token-id');
  if (!given.ok) return given;
  const revoked = await revokeApiToken(deps, given.value['token-id'] as string);
  return revoked.ok
    ? ok({ tokenId: revoked.value.id, revokedAt: revoked.value.revokedAt?.toISOString() })
    : revoked;
}
