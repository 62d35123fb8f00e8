/** How a request may draw on the scan's request budget. */
export interface BudgetClaim {
  /** One of many links a check samples: it comes after the essential fetches (see RequestBudget). */
  sample: boolean;
  /** For a sample: true the first time it is called for the check's first sample, false after (see RequestBudget). */
  firstSample?: (() => boolean) | undefined;
  /** A sample sent again once the scan's essential fetches are done: it may use the essential reserve. */
  afterEssentials?: boolean | undefined;
}

/**
 * What a request was granted: an essential fetch, a check's first sample (its redirect hops then count as essential,
 * since the sample is not answered without them), or another sample.
 */
export type BudgetGrant = "essential" | "first-sample" | "sample";

/**
 * Requests the held-back samples leave once they go (`afterEssentials`): a check woken from its samples may still fetch
 * what they named (schemas.valid reads up to 3 schemas its sampled documents point at), and nothing may starve it.
 */
const KEPT_AFTER_SAMPLES = 4;

/**
 * The scan's request budget, planned so that every applicable check reaches a verdict on a large site (DESIGN §8).
 * Each sampling check that has not sampled yet is kept one request for its first sample, which nothing else may use;
 * essential fetches use the rest; other samples may not use the last `sampleReserve` requests while essential fetches
 * may still need them, and once those are done (`afterEssentials`, see sample-gate.ts) they share what is
 * left.
 */
export class RequestBudget {
  private readonly limits: { maxRequests: number; sampleReserve: number };
  private sentCount = 0;
  private minimumsLeft = 0;

  constructor(limits: { maxRequests: number; sampleReserve: number }) {
    this.limits = limits;
  }

  /** Requests sent so far. */
  get sent(): number {
    return this.sentCount;
  }

  /** How many applicable checks sample: each is kept one sample before anything is shared out. */
  planSamples(checks: number): void {
    this.minimumsLeft = checks;
  }

  /** A planned check finished without sampling: its kept request goes back to the shared part. */
  releaseSample(): void {
    this.minimumsLeft = Math.max(0, this.minimumsLeft - 1);
  }

  /** Whether a sample held back by the essential reserve could still go once the essential fetches are done. */
  get roomAfterEssentials(): boolean {
    return this.sentCount < this.limits.maxRequests - this.minimumsLeft - KEPT_AFTER_SAMPLES;
  }

  /** Counts one request and says what it was granted as, or says why it may not be sent. */
  take(claim: BudgetClaim): { grant: BudgetGrant } | { refused: string } {
    const { maxRequests, sampleReserve } = this.limits;
    if (this.sentCount >= maxRequests) return { refused: `the scan's budget of ${maxRequests} requests is spent` };
    const kept = this.minimumsLeft;
    const keptNote = `${kept} more ${kept === 1 ? "is" : "are"} kept for checks' first sample`;
    let grant: BudgetGrant;
    if (!claim.sample) {
      if (this.sentCount >= maxRequests - kept) return { refused: `the rest of the budget is kept (${keptNote})` };
      grant = "essential";
    } else if (claim.firstSample?.() === true) {
      this.releaseSample();
      grant = "first-sample";
    } else if (claim.afterEssentials === true) {
      if (this.sentCount >= maxRequests - kept - KEPT_AFTER_SAMPLES)
        return {
          refused: `the sampling share of the budget is spent (the last ${KEPT_AFTER_SAMPLES} are kept for what samples name${kept > 0 ? `; ${keptNote}` : ""})`,
        };
      grant = "sample";
    } else {
      if (this.sentCount >= maxRequests - sampleReserve - kept)
        return {
          refused: `the last ${sampleReserve} requests of the budget are kept for essential checks${kept > 0 ? ` (and ${keptNote})` : ""}`,
        };
      grant = "sample";
    }
    this.sentCount += 1;
    return { grant };
  }
}

/** How one call may spend the request budget. */
export interface Spending extends BudgetClaim {
  onSent: (() => void) | undefined;
  /** What the request's latest hop was granted (see RequestBudget.take). */
  granted?: BudgetGrant | undefined;
}

/** A hop or retry of a check's first sample: it draws on the budget as an essential fetch does. */
export function asPartOfFirstSample(spending: Spending): Spending {
  return { ...spending, sample: false, firstSample: undefined, granted: undefined };
}
