export interface IdempotencyRecord {
  scope: string;
  key: string;
  fingerprint: string;
  responseStatus: number;
  responseBody: unknown;
  createdAt: Date;
}

/** What a transaction finds when it takes a key: held by another, or its record (if any). */
export type IdempotencyClaim =
  | { taken: false }
  | {
      taken: true;
      /** The record saved at or after `notBefore`, as of the claim's start. */
      existing: IdempotencyRecord | null;
    };

export interface IdempotencyStore {
  /**
   * Takes the key for the current transaction (released at its end) and reads its record in
   * the same statement. `taken: false`: another transaction holds the key. A twin that commits
   * between the read and the lock is caught by `save`.
   */
  claim(scope: string, key: string, notBefore: Date): Promise<IdempotencyClaim>;
  /**
   * Saves the record, or replaces one saved before `notBefore` (expired). False, and nothing
   * written, when a record saved since is there: a twin committed after this one's claim read.
   */
  save(record: Omit<IdempotencyRecord, 'createdAt'>, notBefore: Date): Promise<boolean>;
  deleteOlderThan(cutoff: Date): Promise<number>;
}
