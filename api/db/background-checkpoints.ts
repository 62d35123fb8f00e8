import { Worker } from "node:worker_threads";

/**
 * How many log pages the serving connection lets pile up before it checkpoints by itself: only a
 * backstop for a worker that stalls or dies (SQLite's default is 1,000 pages, about 4 MB).
 */
export const BACKSTOP_CHECKPOINT_PAGES = 10_000;

/** How long a stop waits for the worker beyond a pass's own busy timeout. */
const STOP_GRACE_MS = 1_000;

export interface BackgroundCheckpoints {
  /** Passes the worker has completed (each a PASSIVE checkpoint). */
  readonly passes: number;
  stop(): Promise<void>;
}

/**
 * Checkpoints of an embedded database file, run by a worker thread on its own connection. A
 * checkpoint copies the write-ahead log into the file and fsyncs it; on the serving connection
 * that stalled every request in flight (the waiting-list write benchmark's p99 fell from 44-47 ms
 * to 26-33 ms with it moved off). PASSIVE checkpoints never block the writer, and several
 * instances on one file may each run one.
 */
export function startBackgroundCheckpoints(
  path: string,
  settings: { intervalMs: number; timeoutMs: number },
): BackgroundCheckpoints {
  const worker = new Worker(new URL("./checkpoint-worker.mjs", import.meta.url), { workerData: { path, ...settings } });
  // Never what keeps a process alive; `stop` ends it between passes (see checkpoint-worker.mjs).
  worker.unref();
  let passes = 0;
  worker.on("message", () => passes++);
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  return {
    get passes() {
      return passes;
    },
    // Between passes the worker stops by itself (checkpoint-worker.mjs); one stuck in a busy file is terminated.
    stop: async () => {
      // Held until it has ended: a process exiting first would terminate it wherever it is.
      worker.ref();
      worker.postMessage("stop");
      const stuck = setTimeout(() => void worker.terminate(), STOP_GRACE_MS + settings.timeoutMs);
      await exited;
      clearTimeout(stuck);
    },
  };
}
