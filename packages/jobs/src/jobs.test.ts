import { describe, expect, it } from 'vitest';
import type { JobDeps } from './jobs.js';
import { createJobs } from './jobs.js';
import { createWorker } from './worker.js';

const silent = { info() {}, warn() {}, error() {} };
// Creating the jobs touches no store; running them is covered against PostgreSQL in apps/api.
const uow = { stores: {} } as JobDeps['uow'];
const clock = { now: () => new Date() };

describe('createJobs', () => {
  it('is the one list both apps run: hold expiry, both clean-ups, webhook delivery', () => {
    const jobs = createJobs({ uow, clock, logger: silent }, { allowPrivateWebhookUrls: false });
    expect(jobs.map((job) => [job.name, job.intervalMs])).toEqual([
      ['expire-holds', 5_000],
      ['purge-idempotency-keys', 10 * 60_000],
      ['purge-ended-sessions', 60 * 60_000],
      ['deliver-webhooks', 500],
    ]);
  });

  it('is a list the runner accepts (unique names, positive intervals)', () => {
    const jobs = createJobs({ uow, clock, logger: silent }, { allowPrivateWebhookUrls: true });
    expect(() => createWorker({ jobs, logger: silent })).not.toThrow();
  });
});
