import { fail, ok, type Result } from '@travelops/domain';
import * as v from 'valibot';

// `true`/`1` or `false`/`0`, as the API reads its flags.
const Flag = v.pipe(
  v.picklist(['true', 'false', '1', '0'], 'must be true, false, 1 or 0'),
  v.transform((value) => value === 'true' || value === '1'),
);

// Messages are ours, not valibot's defaults, because those quote the received value (a password).
const WorkerEnvSchema = v.object({
  DATABASE_URL: v.optional(
    v.pipe(
      v.string(),
      v.check(
        (value) => /^postgres(ql)?:\/\//.test(value) && URL.canParse(value),
        'must be a PostgreSQL URL such as postgres://user:password@host:5432/travelops',
      ),
    ),
  ),
  WEBHOOK_ALLOW_PRIVATE_URLS: v.optional(Flag),
  NODE_ENV: v.optional(v.string()),
});

export interface WorkerConfig {
  /** null: no server database; in embedded (PGlite) mode the API process runs the jobs. */
  databaseUrl: string | null;
  /**
   * `WEBHOOK_ALLOW_PRIVATE_URLS`; unset, private addresses are allowed except when
   * `NODE_ENV=production` (development receivers live on localhost).
   */
  allowPrivateWebhookUrls: boolean;
}

/** Parses the worker's environment; the error lists every bad key as `KEY: problem`. */
export function parseWorkerEnv(env: Record<string, string | undefined>): Result<WorkerConfig, string[]> {
  // An empty variable (`DATABASE_URL=`) means unset, as in most deployment tools.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = v.safeParse(WorkerEnvSchema, present);
  if (!parsed.success) {
    return fail(parsed.issues.map((issue) => `${v.getDotPath(issue) ?? '(environment)'}: ${issue.message}`));
  }
  const e = parsed.output;
  return ok({
    databaseUrl: e.DATABASE_URL ?? null,
    allowPrivateWebhookUrls: e.WEBHOOK_ALLOW_PRIVATE_URLS ?? e.NODE_ENV !== 'production',
  });
}
