import type { DomainError } from '@travelops/domain/shared';

/** SQLSTATE codes this package turns into expected outcomes; every other error is a bug and is rethrown. */
const UNIQUE_VIOLATION = '23505';
const CHECK_VIOLATION = '23514';
const FOREIGN_KEY_VIOLATION = '23503';

/** Constraint (or unique index) name -> the domain error its violation means. */
export type ConstraintErrors = Readonly<Record<string, DomainError>>;

interface PgErrorFields {
  code: string;
  constraint: string | undefined;
}

function pgErrorFields(error: unknown): PgErrorFields | null {
  if (typeof error !== 'object' || error === null) return null;
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  if (typeof code !== 'string') return null;
  return { code, constraint: typeof constraint === 'string' ? constraint : undefined };
}

/**
 * The domain error for a unique, check or foreign-key violation of one of `known`'s constraints, else null.
 * pg and PGlite both report the violated constraint's name, so the mapping is exact.
 */
export function constraintError(error: unknown, known: ConstraintErrors): DomainError | null {
  const fields = pgErrorFields(error);
  if (!fields || ![UNIQUE_VIOLATION, CHECK_VIOLATION, FOREIGN_KEY_VIOLATION].includes(fields.code))
    return null;
  return (fields.constraint && known[fields.constraint]) || null;
}

/** True for errors a concurrent twin can cause while creating the same table (knex's migration tables). */
export function isCreateRace(error: unknown): boolean {
  const fields = pgErrorFields(error);
  // 42P07: relation exists; 23505: the twin's pg_type row won the race; 42710: "type ... already
  // exists", the twin's row type committed between the server's two checks.
  return fields?.code === '42P07' || fields?.code === UNIQUE_VIOLATION || fields?.code === '42710';
}
