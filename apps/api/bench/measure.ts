/** Load loops and their figures, shared by the HTTP load worker and the pg baseline. */

export interface Measurement {
  requests: number;
  /** Time spent inside measured phases (race rounds exclude the set-up between rounds). */
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Outcome (HTTP status, or what the baseline query returned) -> count. */
  outcomes: Record<string, number>;
}

/** Raw figures of one measured slice; slices of one side are merged by `summarize`. */
export interface Sample {
  latenciesMs: number[];
  outcomes: Record<string, number>;
  seconds: number;
  /** Race rounds only: seats sold in each round. */
  soldPerRound?: number[];
}

export const round = (value: number, digits: number) => Number(value.toFixed(digits));

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

export function summarize(samples: Sample[]): Measurement {
  const sorted = samples.flatMap((s) => s.latenciesMs).sort((a, b) => a - b);
  const seconds = samples.reduce((sum, s) => sum + s.seconds, 0);
  const outcomes: Record<string, number> = {};
  for (const sample of samples) {
    for (const [key, count] of Object.entries(sample.outcomes)) outcomes[key] = (outcomes[key] ?? 0) + count;
  }
  return {
    requests: sorted.length,
    seconds: round(seconds, 2),
    requestsPerSecond: round(sorted.length / seconds, 0),
    p50Ms: round(percentile(sorted, 0.5), 2),
    p99Ms: round(percentile(sorted, 0.99), 2),
    outcomes,
  };
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
 * Rounds of a race for one departure: each round gets a fresh one (`prepare`, not timed),
 * then every client asks for one seat twice. One unmeasured round warms up first.
 */
export async function raceRounds(options: {
  clients: number;
  seconds: number;
  prepare: () => Promise<string>;
  attempt: (departureId: string, seq: number) => Promise<string>;
}): Promise<Sample> {
  const { clients, seconds, prepare, attempt } = options;
  let seq = 0;
  const warmUp = await prepare();
  await Promise.all(Array.from({ length: clients }, () => attempt(warmUp, seq++).catch(() => '')));

  const rec = recorder();
  const deadline = Date.now() + seconds * 1000;
  const soldPerRound: number[] = [];
  while (soldPerRound.length === 0 || Date.now() < deadline) {
    const departureId = await prepare();
    let sold = 0;
    await rec.measure(async () => {
      await Promise.all(
        Array.from({ length: clients }, async () => {
          for (let i = 0; i < 2; i++) {
            if ((await rec.timed(() => attempt(departureId, seq++))) === '201') sold++;
          }
        }),
      );
    });
    soldPerRound.push(sold);
  }
  return { ...rec.sample(), soldPerRound };
}
