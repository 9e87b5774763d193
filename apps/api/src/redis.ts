import { Redis } from 'ioredis';

/**
 * A Redis client whose every command fails fast when Redis is away (no offline queue,
 * bounded connect and command time), so no request waits on it.
 */
export function createRedisClient(url: string): Redis {
  return new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    // Commands of one event-loop turn (many requests' rate-limit checks) go out in one write.
    enableAutoPipelining: true,
    connectTimeout: 1000,
    commandTimeout: 500,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
}
