export interface IdempotencyRecord {
  scope: string;
  key: string;
  fingerprint: string;
  responseStatus: number;
  responseBody: unknown;
  createdAt: Date;
}

export interface IdempotencyStore {
  /** Takes the key for the current transaction (released at its end); false if another transaction holds it. */
  tryLock(scope: string, key: string): Promise<boolean>;
  /** The completed record for the key, if it was saved at or after `notBefore`. */
  find(scope: string, key: string, notBefore: Date): Promise<IdempotencyRecord | null>;
  /** Saves (or replaces an expired) record. */
  save(record: Omit<IdempotencyRecord, 'createdAt'>): Promise<void>;
  deleteOlderThan(cutoff: Date): Promise<number>;
}
