import type { DomainError } from './errors.js';
import type { Result } from './result.js';

export interface Clock {
  now(): Date;
}

/**
 * Where the apps, their jobs and the HTTP adapter write what happened: fields first, message
 * second. A port like `Clock`: the apps hand an implementation in (`createJsonLogger`).
 */
export interface Logger {
  info(fields: object, msg?: string): void;
  warn(fields: object, msg?: string): void;
  error(fields: object, msg?: string): void;
}

/** Position in a keyset-ordered list: the sort value and id of the last item seen. */
export interface Keyset {
  value: string | number;
  id: string;
}

export interface PageRequest {
  limit: number;
  after: Keyset | null;
}

export interface Page<T> {
  items: T[];
  hasMore: boolean;
  /** Where the next page starts; null on the last page (a change feed's always says where to resume). */
  next: Keyset | null;
}

export interface DateRange {
  /** Calendar dates `YYYY-MM-DD`, both inclusive. */
  from?: string;
  to?: string;
}

/**
 * The unit of work a use case runs in. `S` names the stores the use case needs, and no more.
 *
 * Outside a transaction, `stores` read from the pool and `transaction` opens one. Inside
 * (the request's transaction, or a job's), `stores` are bound to it and `transaction`
 * joins it: no savepoint, so a failure a use case returns must travel up to the owner of
 * the transaction, which rolls everything back.
 */
export interface UnitOfWork<S> {
  readonly stores: S;
  /**
   * Runs `work` atomically: committed when it returns ok, rolled back when it fails or throws.
   * `E` is the failure the work returns (a context with errors of its own, OCTO's, names it).
   */
  transaction<T, E = DomainError>(work: (tx: UnitOfWork<S>) => Promise<Result<T, E>>): Promise<Result<T, E>>;
}
