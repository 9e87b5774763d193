import { fail, ok, type Result } from '@travelops/domain';
import * as v from 'valibot';

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
});

export interface WorkerConfig {
  /** null: no server database; in embedded (PGlite) mode the API process runs the jobs. */
  databaseUrl: string | null;
}

/** Parses the worker's environment; the error lists every bad key as `KEY: problem`. */
export function parseWorkerEnv(env: Record<string, string | undefined>): Result<WorkerConfig, string[]> {
  // An empty variable (`DATABASE_URL=`) means unset, as in most deployment tools.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = v.safeParse(WorkerEnvSchema, present);
  if (!parsed.success) {
    return fail(parsed.issues.map((issue) => `${v.getDotPath(issue) ?? '(environment)'}: ${issue.message}`));
  }
  return ok({ databaseUrl: parsed.output.DATABASE_URL ?? null });
}
