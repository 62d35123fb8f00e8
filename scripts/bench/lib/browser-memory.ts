import { readdirSync, readFileSync } from "node:fs";

function readOrEmpty(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

/** Direct children of a process, from every thread's `children` list (Linux). */
function childrenOf(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tasks.flatMap((task) =>
    readOrEmpty(`/proc/${pid}/task/${task}/children`).split(" ").filter(Boolean).map(Number),
  );
}

/** Every descendant of this process whose command name starts with `name` (Chromium's zygote, renderers, GPU, …). */
export function descendantsNamed(name: string, root = process.pid): number[] {
  const found: number[] = [];
  const queue = childrenOf(root);
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    if (readOrEmpty(`/proc/${pid}/comm`).trim().startsWith(name)) found.push(pid);
    queue.push(...childrenOf(pid));
  }
  return found;
}

export interface ProcessMemory {
  processes: number;
  /** Proportional set size: shared pages split between the processes that share them (the honest sum). */
  pssMb: number;
  /** Resident set size summed: counts shared pages once per process, so it overstates. */
  rssMb: number;
}

/** The memory of the browser processes this process started (Linux `smaps_rollup`); zeros elsewhere. */
export function browserMemory(name = "chrom"): ProcessMemory {
  let pssKb = 0;
  let rssKb = 0;
  const pids = descendantsNamed(name);
  for (const pid of pids) {
    const rollup = readOrEmpty(`/proc/${pid}/smaps_rollup`);
    pssKb += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
    rssKb += Number(/^Rss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
  }
  return { processes: pids.length, pssMb: Math.round(pssKb / 1024), rssMb: Math.round(rssKb / 1024) };
}
