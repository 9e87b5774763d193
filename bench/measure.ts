/** Load loops and their figures, shared by the HTTP load worker and the pg baseline. */

/** Raw figures of one measured slice of one side. */
export interface Sample {
  latenciesMs: number[];
  outcomes: Record<string, number>;
  seconds: number;
  /** Race rounds only: seats sold in each round, and each round's departure. */
  soldPerRound?: number[];
  departures?: string[];
}

/** One slice's figures; `perSecond` counts what the case counts (requests, or seats sold). */
export interface SliceFigures {
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  count: number;
  seconds: number;
  outcomes: Record<string, number>;
  /** CPU time the serving process spent per completed request (ms), when it is a process we started. */
  cpuMsPerRequest?: number;
}

export const round = (value: number, digits: number) => Number(value.toFixed(digits));

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

/** A slice's figures; `counted` picks what its rate counts (default: every request). */
export function figuresOf(sample: Sample, counted?: (outcome: string) => boolean): SliceFigures {
  const sorted = [...sample.latenciesMs].sort((a, b) => a - b);
  const count = counted
    ? Object.entries(sample.outcomes).reduce((sum, [key, n]) => sum + (counted(key) ? n : 0), 0)
    : sorted.length;
  return {
    perSecond: round(count / sample.seconds, 1),
    p50Ms: round(percentile(sorted, 0.5), 2),
    p99Ms: round(percentile(sorted, 0.99), 2),
    count,
    seconds: round(sample.seconds, 2),
    outcomes: sample.outcomes,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Collects per-request latencies and outcomes; only time spent inside `measure` counts. */
function recorder() {
  const latenciesMs: number[] = [];
  const outcomes: Record<string, number> = {};
  let busyNs = 0n;
  return {
    async timed(work: () => Promise<string>) {
      const started = process.hrtime.bigint();
      let outcome: string;
      try {
        outcome = await work();
      } catch (error) {
        outcome = `error: ${error instanceof Error ? error.message : String(error)}`.slice(0, 80);
      }
      latenciesMs.push(Number(process.hrtime.bigint() - started) / 1e6);
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      return outcome;
    },
    async measure(phase: () => Promise<void>) {
      const started = process.hrtime.bigint();
      await phase();
      busyNs += process.hrtime.bigint() - started;
    },
    sample: (): Sample => ({ latenciesMs, outcomes, seconds: Number(busyNs) / 1e9 }),
  };
}

/** `clients` loops, each sending one request after the other for `seconds` (after a short warm-up). */
export async function closedLoop(
  clients: number,
  seconds: number,
  send: () => Promise<string>,
): Promise<Sample> {
  const warmUntil = Date.now() + 300;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < warmUntil) await send().catch(() => undefined);
    }),
  );
  const rec = recorder();
  const deadline = Date.now() + seconds * 1000;
  await rec.measure(async () => {
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (Date.now() < deadline) await rec.timed(send);
      }),
    );
  });
  return rec.sample();
}

/**
 * Rounds of a race for one departure: each round gets a fresh one (`prepare`, not timed) and
 * every client books one seat after the other until it is told the departure is sold out
 * (`attempt` answers '409'), so a round sells every seat. Rounds follow each other until
 * `seconds` of measured time have passed (at least one). One small unmeasured round warms up.
 */
export async function raceRounds(options: {
  clients: number;
  seconds: number;
  prepare: (warmUp: boolean) => Promise<string>;
  attempt: (departureId: string, seq: number) => Promise<string>;
}): Promise<Sample> {
  const { clients, seconds, prepare, attempt } = options;
  let seq = 0;
  const warmUp = await prepare(true);
  await Promise.all(Array.from({ length: clients }, () => attempt(warmUp, seq++).catch(() => '')));

  const rec = recorder();
  const deadline = Date.now() + seconds * 1000;
  const soldPerRound: number[] = [];
  const departures: string[] = [];
  while (soldPerRound.length === 0 || Date.now() < deadline) {
    const departureId = await prepare(false);
    let sold = 0;
    await rec.measure(async () => {
      await Promise.all(
        Array.from({ length: clients }, async () => {
          for (;;) {
            const outcome = await rec.timed(() => attempt(departureId, seq++));
            if (outcome === '201') sold++;
            // Sold out (or broken): this client is done with the round.
            else break;
          }
        }),
      );
    });
    soldPerRound.push(sold);
    departures.push(departureId);
  }
  return { ...rec.sample(), soldPerRound, departures };
}
