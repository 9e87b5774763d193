import type { Logger } from '@travelops/domain/shared';

/** Something that happened outside the runner and may give a job work: `outbox`, an event committed. */
type WakeSource = 'outbox';

/** A recurring job. `run` should return soon after `signal` aborts (on shutdown). */
export interface Job {
  name: string;
  /** The next run starts this long after a run finishes, unless a wake-up comes first. */
  intervalMs: number;
  /** Woken by these: `worker.wake(source)` runs the job now instead of at its interval. */
  wakeOn?: readonly WakeSource[];
  run(signal: AbortSignal): Promise<void>;
}

export interface WorkerOptions {
  jobs: readonly Job[];
  logger: Logger;
  /** How long stop() waits for in-flight runs after aborting them; default 10 s. */
  shutdownGraceMs?: number;
}

export interface Worker {
  start(): void;
  /**
   * Runs the jobs that wake on `source` now: a job waiting for its interval starts at once, a
   * job in the middle of a run runs again right after it. Wake-ups coalesce (one run answers
   * any number of them) and a job still never overlaps itself. Ignored unless running.
   */
  wake(source: WakeSource): void;
  stop(): Promise<void>;
}

const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

function assertValidJobs(jobs: readonly Job[]): void {
  const names = new Set<string>();
  for (const job of jobs) {
    if (job.name === '' || names.has(job.name)) {
      throw new Error(`Job names must be non-empty and unique: "${job.name}"`);
    }
    names.add(job.name);
    if (!(Number.isFinite(job.intervalMs) && job.intervalMs > 0)) {
      throw new RangeError(`Job "${job.name}" needs a positive intervalMs`);
    }
  }
}

/**
 * Runs each job at once, then again `intervalMs` after each run finishes (or sooner when it is
 * woken), so a job never overlaps itself. A failing run is logged and the job runs again on
 * its next turn.
 */
export function createWorker(options: WorkerOptions): Worker {
  const { jobs, logger, shutdownGraceMs = DEFAULT_SHUTDOWN_GRACE_MS } = options;
  assertValidJobs(jobs);
  const controller = new AbortController();
  const timers = new Map<string, NodeJS.Timeout>();
  const inFlight = new Map<string, Promise<void>>();
  // Jobs woken while they were running: they run again as soon as the run ends.
  const wokenWhileRunning = new Set<string>();
  let state: 'idle' | 'running' | 'stopped' = 'idle';
  let stopped: Promise<void> | undefined;

  async function runOnce(job: Job): Promise<void> {
    try {
      await job.run(controller.signal);
    } catch (error) {
      if (controller.signal.aborted) {
        logger.warn({ job: job.name, err: error }, 'job interrupted by shutdown');
      } else {
        logger.error({ job: job.name, err: error }, 'job failed');
      }
    }
  }

  function schedule(job: Job, delayMs: number): void {
    if (state !== 'running') return;
    const timer = setTimeout(() => {
      timers.delete(job.name);
      const run = runOnce(job).finally(() => {
        inFlight.delete(job.name);
        schedule(job, wokenWhileRunning.delete(job.name) ? 0 : job.intervalMs);
      });
      inFlight.set(job.name, run);
    }, delayMs);
    timers.set(job.name, timer);
  }

  async function drain(): Promise<void> {
    if (inFlight.size === 0) return;
    let graceTimer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      Promise.allSettled(inFlight.values()).then(() => true),
      new Promise<false>((resolve) => {
        graceTimer = setTimeout(() => resolve(false), shutdownGraceMs);
      }),
    ]);
    clearTimeout(graceTimer);
    if (!finished) {
      logger.warn(
        { jobs: [...inFlight.keys()], graceMs: shutdownGraceMs },
        'jobs still running after the grace period',
      );
    }
  }

  return {
    start() {
      if (state !== 'idle') return;
      state = 'running';
      logger.info(
        { jobs: jobs.map((job) => ({ name: job.name, intervalMs: job.intervalMs })) },
        jobs.length === 0 ? 'worker started with no jobs' : 'worker started',
      );
      for (const job of jobs) schedule(job, 0);
    },
    wake(source) {
      if (state !== 'running') return;
      for (const job of jobs) {
        if (!job.wakeOn?.includes(source)) continue;
        if (inFlight.has(job.name)) {
          wokenWhileRunning.add(job.name);
          continue;
        }
        // Not in flight, so waiting on its timer: bring that forward.
        clearTimeout(timers.get(job.name));
        timers.delete(job.name);
        schedule(job, 0);
      }
    },
    stop() {
      stopped ??= (async () => {
        const wasRunning = state === 'running';
        state = 'stopped';
        for (const timer of timers.values()) clearTimeout(timer);
        timers.clear();
        controller.abort();
        await drain();
        if (wasRunning) logger.info({}, 'worker stopped');
      })();
      return stopped;
    },
  };
}
