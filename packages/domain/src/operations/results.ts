import { type DomainError, notFound, unprocessable } from '../shared/errors.js';
import { fail, ok, type Result } from '../shared/result.js';

export const unknownRef = (what: string, field: string): DomainError =>
  unprocessable(`No such ${what} in this workspace.`, field, 'not_found');

export const orNotFound = <T>(value: T | null, resource: string): Result<T> =>
  value ? ok(value) : fail(notFound(resource));

export const deleted = (
  id: string,
  found: boolean,
  resource: string,
): Result<{ id: string; deleted: true }> =>
  found ? ok({ id, deleted: true as const }) : fail(notFound(resource));
