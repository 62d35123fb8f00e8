import { performance } from "node:perf_hooks";

/**
 * How old a reading of the standing epoch may be when a request uses it. The staff commands that
 * revoke a token or change an agent's trust wait this long after committing before they report
 * success (scripts/admin/agents.ts), so every instance refuses from the next request after that.
 */
export const STANDING_FRESH_MS = 250;

/**
 * The agents' standing epoch as this instance last read it: a counter the database moves with every
 * revocation, suspension or other change to a token's or an agent's standing (migration 0005's
 * triggers). A token owner kept in memory carries the epoch read with it, in the same statement,
 * and stands only while no newer epoch has been read (`standsAt`).
 *
 * A reading is used for at most STANDING_FRESH_MS after its read began: then a request arriving
 * more than that after a change was committed meets a reading begun after the commit, and refuses.
 * Past half that age, a request starts a new read in the background and goes on with the current
 * one; past all of it (an idle or stalled instance), requests wait for a read begun then. Under
 * load that is one single-row read per ~125 ms per instance, whatever the rate of requests; a
 * request pays a clock reading and two comparisons (api/fast-path/README.md).
 */
export class StandingEpoch {
  #value = 0;
  /** When the read that gave `#value` began (performance.now()). */
  #readAt = Number.NEGATIVE_INFINITY;
  #reading: { startedAt: number; value: Promise<number> } | undefined;

  private readonly read: () => Promise<number>;
  private readonly now: () => number;

  constructor(read: () => Promise<number>, now: () => number = () => performance.now()) {
    this.read = read;
    this.now = now;
  }

  /** The epoch a request may use now: at once while the reading is fresh, else from a read begun now. */
  current(): number | Promise<number> {
    const now = this.now();
    const age = now - this.#readAt;
    if (age < STANDING_FRESH_MS) {
      if (age >= STANDING_FRESH_MS / 2) this.#refresh(now).catch(() => {});
      return this.#value;
    }
    return this.#refresh(now);
  }

  /**
   * Runs a read that also reads the epoch (a token owner's, in the same statement) and takes the
   * epoch it found as a reading begun when the read began: a request that had to read its owner
   * leaves a fresh reading behind for the ones that follow, with no read of its own.
   */
  async alongside<T>(read: () => Promise<T>, epochOf: (value: T) => number | null): Promise<T> {
    const startedAt = this.now();
    const value = await read();
    const epoch = epochOf(value);
    if (epoch !== null && startedAt > this.#readAt) {
      this.#value = epoch;
      this.#readAt = startedAt;
    }
    return value;
  }

  /** A read begun within the fresh window (the one in flight, if it is recent enough), else a new one. */
  #refresh(now: number): Promise<number> {
    const pending = this.#reading;
    if (pending && now - pending.startedAt < STANDING_FRESH_MS) return pending.value;
    const value = this.read().then((epoch) => {
      if (now > this.#readAt) {
        this.#value = epoch;
        this.#readAt = now;
      }
      return epoch;
    });
    const reading = { startedAt: now, value };
    this.#reading = reading;
    const settled = () => {
      if (this.#reading === reading) this.#reading = undefined;
    };
    value.then(settled, settled);
    return value;
  }
}

/** An owner read under `ownerEpoch` still stands at `epoch` unless a change came after its reading. */
export const standsAt = (ownerEpoch: number, epoch: number): boolean => ownerEpoch >= epoch;
