import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { LoadOptions, LoadResult } from "./load-shapes.ts";
import { runWrk, wrkAvailable } from "./wrk.ts";

const run = promisify(execFile);

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

function middle<T>(values: T[], by: (value: T) => number): T {
  const sorted = [...values].sort((a, b) => by(a) - by(b));
  const found = sorted[Math.floor(sorted.length / 2)];
  if (found === undefined) throw new Error("no results");
  return found;
}

/**
 * Runs the target and the baseline in back-to-back pairs, after a warm-up of each, and keeps the
 * median of the pairs' ratios. Noise on this 2-core VM comes in bursts of a few seconds that can
 * halve one side's figure: a pair shares its moment, so a burst moves one ratio, which the median
 * drops. Many short pairs (9 × 3 s) drop more of them than few long ones (5 × 5 s, which put the
 * agent-standing ratio anywhere from 0.52 to 0.73 over three runs of one build). The order within a
 * pair alternates, so neither side always runs on the other's heels.
 */
export async function compareWithBaseline(
  target: LoadOptions,
  baseline: LoadOptions,
  rounds = 9,
): Promise<{ target: LoadResult; baseline: LoadResult; ratio: number }> {
  const run = (options: LoadOptions) => runLoad({ seconds: 3, ...options });
  await run(target);
  await run(baseline);
  const pairs: { target: LoadResult; baseline: LoadResult; ratio: number }[] = [];
  for (let round = 0; round < rounds; round++) {
    const targetFirst = round % 2 === 0;
    const first = await run(targetFirst ? target : baseline);
    const second = await run(targetFirst ? baseline : target);
    const [t, b] = targetFirst ? [first, second] : [second, first];
    pairs.push({ target: t, baseline: b, ratio: t.requestsPerSecond / b.requestsPerSecond });
  }
  return middle(pairs, (pair) => pair.ratio);
}
