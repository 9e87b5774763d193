import { randomUUID } from 'node:crypto';
import type { Logger } from '@travelops/domain/shared';
import { type ConcurrencyLimiter, createLocalConcurrencyLimiter } from '@travelops/http';
import type { Redis } from 'ioredis';

export interface ConcurrencyLimiterOptions {
  /** Expensive requests one credential may run at once (`EXPENSIVE_REQUESTS_PER_CREDENTIAL`). */
  limit: number;
  /** Shared slots; null: in-process only (a single instance). */
  redis: Redis | null;
  keyPrefix: string;
  logger: Logger;
}

/**
 * A slot outlives a process that died holding it by this long at most: longer than any request
 * may run (`REQUEST_TIMEOUT_SECONDS` is 30 by default).
 */
const LEASE_MS = 120_000;
const REDIS_RETRY_MS = 1000;

/**
 * One atomic step: forget lapsed leases, refuse when `limit` remain, else add this one. The
 * time is Redis's own, so instances whose clocks differ agree on what has lapsed.
 */
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

/**
 * Slots shared by every instance through Redis (a sorted set of leases per credential, each
 * with its expiry), or in-process without Redis. If Redis fails, slots are counted in-process
 * for a second before Redis is tried again, as the rate limits do; the switch is logged once.
 */
export function createConcurrencyLimiter(options: ConcurrencyLimiterOptions): ConcurrencyLimiter {
  const { limit, redis, keyPrefix, logger } = options;
  const local = createLocalConcurrencyLimiter(limit);
  if (!redis) return local;
  let degraded = false;
  let skipRedisUntil = 0;
  return {
    limit,
    async acquire(key) {
      if (Date.now() >= skipRedisUntil) {
        const redisKey = `${keyPrefix}slots:${key}`;
        const lease = randomUUID();
        try {
          const taken = await redis.eval(ACQUIRE, 1, redisKey, limit, LEASE_MS, lease);
          if (degraded) {
            degraded = false;
            logger.info({}, 'concurrent-request slots are back on Redis');
          }
          if (taken !== 1) return null;
          return () => {
            // A lost release only keeps the slot until its lease lapses.
            redis.zrem(redisKey, lease).catch(() => {});
          };
        } catch (error) {
          skipRedisUntil = Date.now() + REDIS_RETRY_MS;
          if (!degraded) {
            degraded = true;
            logger.warn(
              { err: error instanceof Error ? error.message : String(error) },
              'Redis is unavailable: concurrent-request slots fall back to in-process counts on this instance',
            );
          }
        }
      }
      return local.acquire(key);
    },
  };
}
