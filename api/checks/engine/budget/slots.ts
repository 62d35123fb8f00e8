/**
 * At most `size` holders at once, the rest waiting their turn in order: a scan's requests in flight, an instance's
 * name lookups, its renders. A waiter whose signal aborts leaves the queue with the signal's reason.
 */
export class Slots {
  private readonly size: number;
  private readonly waiting: Array<() => void> = [];
  private active = 0;

  constructor(size: number) {
    this.size = size;
  }

  async acquire(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (this.active < this.size) {
      this.active += 1;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const turn = (): void => {
        signal?.removeEventListener("abort", leave);
        resolve();
      };
      const leave = (): void => {
        this.waiting.splice(this.waiting.indexOf(turn), 1);
        reject(signal?.reason);
      };
      this.waiting.push(turn);
      signal?.addEventListener("abort", leave, { once: true });
    });
  }

  /** Hands the slot straight to the next waiter, if any. */
  release(): void {
    const next = this.waiting.shift();
    if (next === undefined) this.active -= 1;
    else next();
  }
}
