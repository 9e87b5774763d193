import { describe, expect, it } from 'vitest';
import type { JobDeps } from './jobs.js';
import { createJobs } from './jobs.js';
import { createWorker } from './worker.js';

const silent = { info() {}, warn() {}, error() {} };
// Creating the jobs touches no store; running them is covered against PostgreSQL in apps/api.
const uow = { stores: {} } as JobDeps['uow'];
const clock = { now: () => new Date() };

describe('createJobs', () => {
  it('is the one list both apps run: hold expiry, both clean-ups, customer retention, webhook delivery', () => {
    const jobs = createJobs({ uow, clock, logger: silent }, { allowPrivateWebhookUrls: false });
    expect(jobs.map((job) => [job.name, job.intervalMs])).toEqual([
      ['expire-holds', 5_000],
      ['purge-idempotency-keys', 10 * 60_000],
      ['purge-ended-sessions', 60 * 60_000],
      ['erase-customers-past-retention', 60 * 60_000],
      ['deliver-webhooks', 1_000],
    ]);
  });

  it('adds the guest e-mail jobs when the app configures mail', () => {
    const mail = {
      transport: null,
      fromAddress: 'bookings@travelops.example',
      publicBaseUrl: 'http://localhost:3000',
      perWorkspacePerMinute: 60,
      holdWarningMinutes: 5,
    };
    const jobs = createJobs({ uow, clock, logger: silent }, { allowPrivateWebhookUrls: false, mail });
    expect(jobs.map((job) => [job.name, job.intervalMs]).slice(-2)).toEqual([
      ['deliver-guest-emails', 500],
      ['schedule-guest-emails', 30_000],
    ]);
  });

  it('webhook delivery is the job an outbox wake-up runs', () => {
    const jobs = createJobs({ uow, clock, logger: silent }, { allowPrivateWebhookUrls: false });
    expect(jobs.filter((job) => job.wakeOn?.includes('outbox')).map((job) => job.name)).toEqual([
      'deliver-webhooks',
    ]);
  });

  it('is a list the runner accepts (unique names, positive intervals)', () => {
    const jobs = createJobs({ uow, clock, logger: silent }, { allowPrivateWebhookUrls: true });
    expect(() => createWorker({ jobs, logger: silent })).not.toThrow();
  });
});
