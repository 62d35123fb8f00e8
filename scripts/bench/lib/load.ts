import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { runWrk, wrkAvailable } from "./wrk.ts";

const run = promisify(execFile);

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  total: number;
  statusCodes: Record<string, number>;
}

export interface LoadOptions {
  url: string;
  connections?: number;
  seconds?: number;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  /** Rotated per request: distinct bodies. */
  bodies?: string[];
  /** Rotated per request: distinct headers (e.g. one token per agent). */
  headerSets?: Record<string, string>[];
  /** Rotated per request, replacing method, path, headers and body: a mixed workload against `url`'s origin. */
  requests?: MixedRequest[];
}

export interface MixedRequest {
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

const useWrk = wrkAvailable();
/** Which load generator the figures come from; wrk when installed (`apt-get install wrk`). */
export const loadGenerator = useWrk ? "wrk (1 thread)" : "autocannon (own process)";

/**
 * One load run. wrk needs a fraction of the CPU autocannon does, which matters when the load
 * generator and the server share two cores: with autocannon the generator, not the server, is
 * often the limit, and every ratio drifts toward 100 %.
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  if (useWrk) return runWrk(options);
  const { stdout } = await run(process.execPath, ["scripts/bench/load-runner.mjs", JSON.stringify(options)], {
    maxBuffer: 16 << 20,
  });
  return JSON.parse(stdout) as LoadResult;
}

const median = (results: LoadResult[]): LoadResult => {
  const sorted = [...results].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
  const middle = sorted[Math.floor(sorted.length / 2)];
  if (!middle) throw new Error("no results");
  return middle;
};

/**
 * Runs the target and the baseline alternately, after a warm-up of each, and keeps the median of
 * each, so a burst of noise on this 2-core machine hits both sides alike.
 */
export async function compareWithBaseline(
  target: LoadOptions,
  baseline: LoadOptions,
  rounds = 5,
): Promise<{ target: LoadResult; baseline: LoadResult; ratio: number }> {
  await runLoad({ ...target, seconds: 3 });
  await runLoad({ ...baseline, seconds: 3 });
  const targets: LoadResult[] = [];
  const baselines: LoadResult[] = [];
  for (let round = 0; round < rounds; round++) {
    baselines.push(await runLoad(baseline));
    targets.push(await runLoad(target));
  }
  const t = median(targets);
  const b = median(baselines);
  return { target: t, baseline: b, ratio: t.requestsPerSecond / b.requestsPerSecond };
}
