import { readdirSync, readFileSync } from "node:fs";

/**
 * Samples the peak resident memory (VmHWM, in KB) of every process this one starts while it runs,
 * so a benchmark can count the helpers a build launches (Pagefind's indexer, esbuild). Linux only;
 * elsewhere it reports 0. `stop()` returns the sum of each child's peak: an upper bound of their share.
 */
export function watchChildrenPeakMemory(everyMs = 200): { stop: () => number } {
  const peaks = new Map<string, number>();
  const sample = () => {
    for (const pid of childPids()) {
      const kb = Number(/VmHWM:\s+(\d+)/.exec(readOrEmpty(`/proc/${pid}/status`))?.[1] ?? 0);
      peaks.set(pid, Math.max(peaks.get(pid) ?? 0, kb));
    }
  };
  const timer = setInterval(sample, everyMs);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      return [...peaks.values()].reduce((sum, kb) => sum + kb, 0);
    },
  };
}

function childPids(): string[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${process.pid}/task`);
  } catch {
    return [];
  }
  return tasks.flatMap((task) => readOrEmpty(`/proc/${process.pid}/task/${task}/children`).split(" ").filter(Boolean));
}

function readOrEmpty(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}
