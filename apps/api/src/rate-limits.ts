import type { Logger } from '@travelops/domain/shared';
import type { RateLimiter, RateLimitOutcome, RateLimitPolicy } from '@travelops/http';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

interface RateLimitRule {
  /** Requests allowed per window. */
  points: number;
  windowSeconds: number;
}

export type RateLimitRules = Record<RateLimitPolicy, RateLimitRule>;

export interface RateLimiterOptions {
  rules: RateLimitRules;
  /** Shared counters; null: in-process only (a single instance). */
  redis: Redis | null;
  /** Prefix of every Redis key, so deployments (and test runs) sharing a Redis never collide. */
  keyPrefix: string;
  logger: Logger;
}

type Limiter = RateLimiterMemory | RateLimiterRedis;

const REDIS_RETRY_MS = 1000;

function toOutcome(rule: RateLimitRule, res: RateLimiterRes | null, allowed: boolean): RateLimitOutcome {
  const consumed = res?.consumedPoints ?? 0;
  return {
    allowed,
    limit: rule.points,
    remaining: Math.max(rule.points - consumed, 0),
    // A key with no window yet resets a whole window after its first request.
    resetSeconds: res ? Math.max(Math.ceil(res.msBeforeNext / 1000), 1) : rule.windowSeconds,
  };
}

/**
 * The fixed-window counters of rate-limiter-flexible: with Redis, each check is one atomic
 * Lua script (INCR with its expiry) shared by every instance; without, in-process.
 *
 * If Redis fails (down, or slower than the client's command timeout), the check falls back
 * to an in-process limiter with the same rules, so requests are still served and still
 * carry the headers; Redis is tried again a second later. The switch is logged once, and
 * so is the return to Redis.
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { rules, redis, keyPrefix, logger } = options;
  const limiters = Object.fromEntries(
    (Object.keys(rules) as RateLimitPolicy[]).map((policy) => {
      const rule = rules[policy];
      const settings = {
        points: rule.points,
        duration: rule.windowSeconds,
        keyPrefix: `${keyPrefix}rl:${policy}`,
      };
      const memory = new RateLimiterMemory(settings);
      const shared = redis
        ? new RateLimiterRedis({ ...settings, storeClient: redis, rejectIfRedisNotReady: true })
        : null;
      return [policy, { rule, memory, shared }];
    }),
  ) as Record<
    RateLimitPolicy,
    { rule: RateLimitRule; memory: RateLimiterMemory; shared: RateLimiterRedis | null }
  >;

  let degraded = false;
  // After a failure, checks stay in-process for a moment: a hung Redis then costs one
  // command timeout per second, not one per request.
  let skipRedisUntil = 0;
  const onRedisAnswer = () => {
    if (!degraded) return;
    degraded = false;
    logger.info({}, 'rate limits are back on Redis');
  };
  const onRedisFailure = (error: unknown) => {
    skipRedisUntil = Date.now() + REDIS_RETRY_MS;
    if (degraded) return;
    degraded = true;
    logger.warn(
      { err: error instanceof Error ? error.message : String(error) },
      'Redis is unavailable: rate limits fall back to in-process counters on this instance',
    );
  };

  /** Runs `work` on Redis, or on the in-process limiter when there is no Redis or it fails. */
  async function withFallback<T>(
    policy: RateLimitPolicy,
    work: (limiter: Limiter) => Promise<T>,
  ): Promise<T> {
    const { shared, memory } = limiters[policy];
    if (shared && Date.now() >= skipRedisUntil) {
      try {
        const result = await work(shared);
        onRedisAnswer();
        return result;
      } catch (error) {
        // Over the limit is an answer from Redis, not a failure of it.
        if (error instanceof RateLimiterRes) {
          onRedisAnswer();
          throw error;
        }
        onRedisFailure(error);
      }
    }
    return work(memory);
  }

  return {
    async consume(policy, key) {
      const { rule } = limiters[policy];
      try {
        return toOutcome(rule, await withFallback(policy, (limiter) => limiter.consume(key)), true);
      } catch (error) {
        if (error instanceof RateLimiterRes) return toOutcome(rule, error, false);
        throw error;
      }
    },
    async peek(policy, key) {
      const { rule } = limiters[policy];
      const res = await withFallback(policy, (limiter) => limiter.get(key));
      return toOutcome(rule, res, (res?.consumedPoints ?? 0) < rule.points);
    },
    async reset(policy, key) {
      await withFallback(policy, (limiter) => limiter.delete(key));
      // The in-process copy may hold attempts counted while Redis was away.
      if (limiters[policy].shared) await limiters[policy].memory.delete(key);
    },
  };
}
