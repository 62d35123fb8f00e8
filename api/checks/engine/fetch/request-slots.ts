/** At most `size` requests of a scan in flight at once, so a scan never floods the site it checks. */
export class RequestSlots {
  private readonly size: number;
  private readonly waiting: Array<() => void> = [];
  private active = 0;

  constructor(size: number) {
    this.size = size;
  }

  async acquire(): Promise<void> {
    if (this.active < this.size) {
      this.active += 1;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Hands the slot straight to the next waiter, if any. */
  release(): void {
    const next = this.waiting.shift();
    if (next === undefined) this.active -= 1;
    else next();
  }
}
