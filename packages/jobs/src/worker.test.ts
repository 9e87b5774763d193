import type { Logger } from '@travelops/domain/shared';
import { describe, expect, it, vi } from 'vitest';
import { createWorker, type Job } from './worker.js';

interface Entry {
  level: 'info' | 'warn' | 'error';
  fields: Record<string, unknown>;
  msg: string | undefined;
}

function createMemoryLogger(): Logger & { entries: Entry[] } {
  const entries: Entry[] = [];
  const at =
    (level: Entry['level']) =>
    (fields: object, msg?: string): void => {
      entries.push({ level, fields: { ...fields }, msg });
    };
  return { entries, info: at('info'), warn: at('warn'), error: at('error') };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Node 20 has no Promise.withResolvers. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

function countingJob(name: string, intervalMs = 5, wakeOn?: Job['wakeOn']): Job & { runs: number } {
  const job = {
    name,
    intervalMs,
    ...(wakeOn && { wakeOn }),
    runs: 0,
    async run() {
      job.runs += 1;
    },
  };
  return job;
}

describe('createWorker', () => {
  it('runs a job repeatedly until stopped', async () => {
    const job = countingJob('tick');
    const worker = createWorker({ jobs: [job], logger: createMemoryLogger() });
    worker.start();
    await vi.waitFor(() => expect(job.runs).toBeGreaterThanOrEqual(3));
    await worker.stop();
  });

  it('never overlaps a job with itself: each run starts after the previous one ended', async () => {
    const spans: Array<{ start: number; end: number }> = [];
    let running = 0;
    let maxRunning = 0;
    const job: Job = {
      name: 'slow',
      intervalMs: 1,
      async run() {
        running += 1;
        maxRunning = Math.max(maxRunning, running);
        const start = performance.now();
        await sleep(20);
        spans.push({ start, end: performance.now() });
        running -= 1;
      },
    };
    const worker = createWorker({ jobs: [job], logger: createMemoryLogger() });
    worker.start();
    await vi.waitFor(() => expect(spans.length).toBeGreaterThanOrEqual(4));
    await worker.stop();
    expect(maxRunning).toBe(1);
    for (let i = 1; i < spans.length; i += 1) {
      expect(spans[i]!.start).toBeGreaterThanOrEqual(spans[i - 1]!.end);
    }
  });

  it('logs a failing run with the job name and runs the job again', async () => {
    const logger = createMemoryLogger();
    const failure = new Error('database unavailable');
    let runs = 0;
    const job: Job = {
      name: 'flaky',
      intervalMs: 5,
      async run() {
        runs += 1;
        if (runs === 1) throw failure;
      },
    };
    const worker = createWorker({ jobs: [job], logger });
    worker.start();
    await vi.waitFor(() => expect(runs).toBeGreaterThanOrEqual(3));
    await worker.stop();
    const errors = logger.entries.filter((entry) => entry.level === 'error');
    expect(errors).toEqual([{ level: 'error', fields: { job: 'flaky', err: failure }, msg: 'job failed' }]);
  });

  it('a job that throws synchronously or always fails does not stop the other jobs', async () => {
    const logger = createMemoryLogger();
    const broken: Job = {
      name: 'broken',
      intervalMs: 5,
      run: () => {
        throw new Error('not even a promise');
      },
    };
    const healthy = countingJob('healthy');
    const worker = createWorker({ jobs: [broken, healthy], logger });
    worker.start();
    await vi.waitFor(() => {
      expect(healthy.runs).toBeGreaterThanOrEqual(3);
      expect(logger.entries.filter((entry) => entry.fields.job === 'broken').length).toBeGreaterThanOrEqual(
        2,
      );
    });
    await worker.stop();
  });

  it('stop() aborts the signal and resolves only after the in-flight run finished', async () => {
    let seenSignal: AbortSignal | undefined;
    let finished = false;
    const started = deferred();
    const job: Job = {
      name: 'long',
      intervalMs: 5,
      async run(signal) {
        seenSignal = signal;
        started.resolve();
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
        await sleep(20); // clean-up after the abort still completes before stop() resolves
        finished = true;
      },
    };
    const worker = createWorker({ jobs: [job], logger: createMemoryLogger() });
    worker.start();
    await started.promise;
    expect(seenSignal?.aborted).toBe(false);
    const stopping = worker.stop();
    expect(seenSignal?.aborted).toBe(true);
    expect(finished).toBe(false);
    await stopping;
    expect(finished).toBe(true);
  });

  it('after stop() no job runs again', async () => {
    const job = countingJob('tick', 1);
    const worker = createWorker({ jobs: [job], logger: createMemoryLogger() });
    worker.start();
    await vi.waitFor(() => expect(job.runs).toBeGreaterThanOrEqual(2));
    await worker.stop();
    const runsAtStop = job.runs;
    await sleep(30);
    expect(job.runs).toBe(runsAtStop);
  });

  it('stop() is idempotent: every call resolves and the worker logs "stopped" once', async () => {
    const logger = createMemoryLogger();
    const worker = createWorker({ jobs: [countingJob('tick')], logger });
    worker.start();
    const first = worker.stop();
    const second = worker.stop();
    await Promise.all([first, second, worker.stop()]);
    await worker.stop();
    expect(logger.entries.filter((entry) => entry.msg === 'worker stopped')).toHaveLength(1);
  });

  it('stop() gives up on a run that ignores its signal after the grace period, and says so', async () => {
    const logger = createMemoryLogger();
    const started = deferred();
    const job: Job = {
      name: 'stubborn',
      intervalMs: 5,
      run() {
        started.resolve();
        return new Promise(() => {});
      },
    };
    const worker = createWorker({ jobs: [job], logger, shutdownGraceMs: 20 });
    worker.start();
    await started.promise;
    await worker.stop();
    expect(logger.entries).toContainEqual({
      level: 'warn',
      fields: { jobs: ['stubborn'], graceMs: 20 },
      msg: 'jobs still running after the grace period',
    });
  });

  it('a worker stopped before it started never runs its jobs', async () => {
    const job = countingJob('tick', 1);
    const worker = createWorker({ jobs: [job], logger: createMemoryLogger() });
    await worker.stop();
    worker.start();
    await sleep(20);
    expect(job.runs).toBe(0);
  });

  it('starting twice schedules each job once', async () => {
    let running = 0;
    let maxRunning = 0;
    let runs = 0;
    const job: Job = {
      name: 'once',
      intervalMs: 1,
      async run() {
        running += 1;
        runs += 1;
        maxRunning = Math.max(maxRunning, running);
        await sleep(5);
        running -= 1;
      },
    };
    const worker = createWorker({ jobs: [job], logger: createMemoryLogger() });
    worker.start();
    worker.start();
    await vi.waitFor(() => expect(runs).toBeGreaterThanOrEqual(3));
    await worker.stop();
    expect(maxRunning).toBe(1);
  });

  it('logs the jobs it runs when it starts', async () => {
    const logger = createMemoryLogger();
    const worker = createWorker({ jobs: [countingJob('a', 100), countingJob('b', 200)], logger });
    worker.start();
    await worker.stop();
    expect(logger.entries[0]).toEqual({
      level: 'info',
      fields: {
        jobs: [
          { name: 'a', intervalMs: 100 },
          { name: 'b', intervalMs: 200 },
        ],
      },
      msg: 'worker started',
    });
  });

  describe('wake', () => {
    it('runs a job that wakes on the source now, not at its interval; other jobs keep their turn', async () => {
      const woken = countingJob('deliver', 60_000, ['outbox']);
      const other = countingJob('expire', 60_000);
      const worker = createWorker({ jobs: [woken, other], logger: createMemoryLogger() });
      worker.start();
      await vi.waitFor(() => expect([woken.runs, other.runs]).toEqual([1, 1]));
      worker.wake('outbox');
      await vi.waitFor(() => expect(woken.runs).toBe(2));
      worker.wake('outbox');
      await vi.waitFor(() => expect(woken.runs).toBe(3));
      await worker.stop();
      expect(other.runs).toBe(1);
    });

    it('a wake-up during a run runs the job once more right after it, never overlapping', async () => {
      let running = 0;
      let maxRunning = 0;
      let runs = 0;
      const inside = deferred();
      const release = deferred();
      const job: Job = {
        name: 'deliver',
        intervalMs: 60_000,
        wakeOn: ['outbox'],
        async run() {
          running += 1;
          runs += 1;
          maxRunning = Math.max(maxRunning, running);
          if (runs === 1) {
            inside.resolve();
            await release.promise;
          }
          running -= 1;
        },
      };
      const worker = createWorker({ jobs: [job], logger: createMemoryLogger() });
      worker.start();
      await inside.promise;
      // Three wake-ups while the first run is in flight: coalesced into one more run.
      worker.wake('outbox');
      worker.wake('outbox');
      worker.wake('outbox');
      expect(runs).toBe(1);
      release.resolve();
      await vi.waitFor(() => expect(runs).toBe(2));
      await sleep(20);
      await worker.stop();
      expect(runs).toBe(2);
      expect(maxRunning).toBe(1);
    });

    it('is ignored before start and after stop', async () => {
      const job = countingJob('deliver', 60_000, ['outbox']);
      const worker = createWorker({ jobs: [job], logger: createMemoryLogger() });
      worker.wake('outbox');
      await sleep(10);
      expect(job.runs).toBe(0);
      worker.start();
      await vi.waitFor(() => expect(job.runs).toBe(1));
      await worker.stop();
      worker.wake('outbox');
      await sleep(10);
      expect(job.runs).toBe(1);
    });
  });

  it.each([
    ['duplicate names', [countingJob('same'), countingJob('same')]],
    ['an empty name', [countingJob('')]],
    ['a zero interval', [countingJob('zero', 0)]],
    ['a NaN interval', [countingJob('nan', Number.NaN)]],
  ])('rejects %s as a programming error', (_label, jobs) => {
    expect(() => createWorker({ jobs, logger: createMemoryLogger() })).toThrow();
  });
});
