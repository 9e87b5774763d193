import { useEffect, useState } from 'preact/hooks';
import type { ApiFailure, ApiResult } from './api.js';

/**
 * Server state, not a store: answers are kept per key for the widget's lifetime and read
 * again when a write shows them stale (a 409 sold out invalidates the calendar and departures).
 */
export function createCache() {
  const entries = new Map<string, Promise<ApiResult<unknown>>>();
  let version = 0;
  const listeners = new Set<() => void>();
  return {
    load<T>(key: string, loader: () => Promise<ApiResult<T>>): Promise<ApiResult<T>> {
      let entry = entries.get(key);
      if (!entry) {
        entry = loader();
        entries.set(key, entry);
        // A failure is not kept: the next render asks again.
        void entry.then((result) => {
          if (!result.ok && entries.get(key) === entry) entries.delete(key);
        });
      }
      return entry as Promise<ApiResult<T>>;
    },
    /** Forgets every answer whose key starts with `prefix`; mounted readers load again. */
    invalidate(prefix: string) {
      for (const key of [...entries.keys()]) if (key.startsWith(prefix)) entries.delete(key);
      version += 1;
      for (const listener of listeners) listener();
    },
    get version() {
      return version;
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
export type Cache = ReturnType<typeof createCache>;

export type Resource<T> =
  | { state: 'loading' }
  | { state: 'ready'; data: T }
  | { state: 'failed'; failure: ApiFailure };

/** The answer for `key` (loaded once, shared), re-read after the cache is invalidated. */
export function useResource<T>(cache: Cache, key: string, loader: () => Promise<ApiResult<T>>): Resource<T> {
  const [version, setVersion] = useState(cache.version);
  const [resource, setResource] = useState<{ key: string; value: Resource<T> }>({
    key,
    value: { state: 'loading' },
  });
  useEffect(() => cache.subscribe(() => setVersion(cache.version)), [cache]);
  // Not `loader` in the dependencies: a new closure each render, while the key names what it loads.
  useEffect(() => {
    let current = true;
    void cache.load(key, loader).then((result) => {
      if (!current) return;
      setResource({
        key,
        value: result.ok
          ? { state: 'ready', data: result.value }
          : { state: 'failed', failure: result.failure },
      });
    });
    return () => {
      current = false;
    };
  }, [cache, key, version]);
  return resource.key === key ? resource.value : { state: 'loading' };
}
