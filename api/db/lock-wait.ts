/**
 * Waiting for a database that is busy, without ever blocking the event loop. SQLite's own busy
 * handler sleeps on the calling thread: with the embedded driver that is the main thread, and one
 * write waiting for another process's lock froze every request of the instance (GET /health took
 * 4.8 s behind a 5 s lock). Here an attempt fails at once and the next one is a timer away, so other
 * requests are answered in between.
 */

/** The error SQLite (embedded or behind a libSQL server) gives for a lock held by someone else. */
export function isBusyError(error: unknown): error is Error {
  if (!(error instanceof Error)) return false;
  const { code } = error as Error & { code?: unknown };
  return code === "SQLITE_BUSY" || code === "SQLITE_LOCKED" || /database is locked/.test(error.message);
}

export interface Backoff {
  /** The first wait, in milliseconds; each next one doubles. */
  firstMs: number;
  /** The longest single wait. */
  capMs: number;
}

/**
 * Short first waits: a lock is usually held for a commit (well under a millisecond), and a retry is
 * one failed `BEGIN IMMEDIATE`, a few microseconds. The cap bounds how late a waiter notices the
 * release of a long lock.
 */
export const LOCK_BACKOFF: Backoff = { firstMs: 1, capMs: 25 };

/** The `attempt`-th wait (0-based) of a backoff, with up to a quarter of jitter so waiters spread out. */
export function backoffDelay(backoff: Backoff, attempt: number): number {
  const base = Math.min(backoff.capMs, backoff.firstMs * 2 ** Math.min(attempt, 16));
  return base * (0.75 + Math.random() * 0.25);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` until it succeeds, waiting between attempts as `retry` says for the error it failed
 * with (`null`: give up at once), and gives up with the last error once `deadline` (epoch ms) has
 * passed. The first attempt is made at once: a database that is not busy costs nothing more.
 */
export async function retryUntil<T>(
  attempt: () => T | Promise<T>,
  retry: (error: unknown) => Backoff | null,
  deadline: number,
): Promise<T> {
  for (let tries = 0; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      const backoff = retry(error);
      const left = deadline - Date.now();
      if (!backoff || left <= 0) throw error;
      await sleep(Math.min(left, backoffDelay(backoff, tries)));
    }
  }
}

/** Retries only while the database is locked, with the lock backoff. */
export const whileBusy = (error: unknown): Backoff | null => (isBusyError(error) ? LOCK_BACKOFF : null);
