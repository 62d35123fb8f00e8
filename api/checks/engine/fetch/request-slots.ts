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

/** How a request may draw on the scan's request budget. */
export interface BudgetClaim {
  /** One of many links a check samples: refused once only the reserved end of the budget is left. */
  sample: boolean;
  /**
   * For a sample past the shared pool: claims the check's one minimum sample (true once per check, and only if the
   * check has sent no sample yet), which may use the share kept so that every sampling check gets one.
   */
  minimum?: (() => boolean) | undefined;
}

/**
 * The scan's request budget, planned so that every check reaches a verdict on a large site (DESIGN §8): the last
 * `sampleReserve` requests are kept for essential fetches, and before them `sampleMinimums` more for the first sample
 * of each sampling check; other samples share what is left. Returns why a request may not be sent, or null.
 */
export function budgetRefusal(
  sent: number,
  limits: { maxRequests: number; sampleReserve: number; sampleMinimums: number },
  claim: BudgetClaim,
): string | null {
  const { maxRequests, sampleReserve, sampleMinimums } = limits;
  if (sent >= maxRequests) return `the scan's budget of ${maxRequests} requests is spent`;
  if (!claim.sample) return null;
  if (sent >= maxRequests - sampleReserve)
    return `the last ${sampleReserve} requests of the budget are kept for essential checks`;
  if (sent >= maxRequests - sampleReserve - sampleMinimums && claim.minimum?.() !== true)
    return `the sampling share of the budget is spent (${sampleMinimums} more are kept for the first sample of each check)`;
  return null;
}
