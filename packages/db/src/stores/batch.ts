/** Keys one statement carries at most; a longer queue goes out as several statements. */
const MAX_KEYS_PER_STATEMENT = 200;

/**
 * Coalesces point reads on the pool: every key asked for during one turn of the event loop
 * (the requests whose bytes arrived together) goes to PostgreSQL in one statement, `load` of
 * the distinct keys, and each caller gets its own row (or null). Under load, one `= any($1)`
 * read serves a dozen requests for the price of one round trip; alone, a read waits for the
 * end of the current turn (`setImmediate`), nothing more.
 *
 * Only for reads on the pool: inside a transaction a read must see that transaction, and
 * locking reads name their own row.
 */
export function batchedLookup<V>(
  load: (keys: readonly string[]) => Promise<ReadonlyMap<string, V>>,
): (key: string) => Promise<V | null> {
  type Waiter = { resolve: (value: V | null) => void; reject: (error: unknown) => void };
  let queue = new Map<string, Waiter[]>();
  let scheduled = false;

  const flush = () => {
    scheduled = false;
    const batch = queue;
    queue = new Map();
    const keys = [...batch.keys()];
    for (let start = 0; start < keys.length; start += MAX_KEYS_PER_STATEMENT) {
      const slice = keys.slice(start, start + MAX_KEYS_PER_STATEMENT);
      load(slice).then(
        (found) => {
          for (const key of slice)
            for (const waiter of batch.get(key) ?? []) waiter.resolve(found.get(key) ?? null);
        },
        (error: unknown) => {
          for (const key of slice) for (const waiter of batch.get(key) ?? []) waiter.reject(error);
        },
      );
    }
  };

  return (key) =>
    new Promise<V | null>((resolve, reject) => {
      const waiting = queue.get(key);
      if (waiting) waiting.push({ resolve, reject });
      else queue.set(key, [{ resolve, reject }]);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
}
