/**
 * Knows when a scan's essential fetches are done, so the samples the essential reserve held back may use what is left
 * of the request budget (request-budget.ts). Each running check is a member; a member is parked while it waits
 * here for a sample and has no essential request of its own in flight. The gate opens, waking every waiting sample,
 * once every member still running is parked: nothing is left that could need the reserve before them. A member that
 * awaits anything else (a validation, a DNS lookup, another request) keeps the gate shut, which errs on the side of
 * the essential fetches.
 */
export class SampleGate {
  private readonly members = new Map<object, { waiting: number; busy: number }>();
  private waiters: Array<{ member: object; wake: () => void }> = [];
  /** The scan's deadline: a sample still waiting when it passes goes on (and is refused by the fetcher). */
  private readonly deadline: AbortSignal;

  constructor(deadline: AbortSignal) {
    this.deadline = deadline;
  }

  /** A check starts: until it finishes or parks, the held samples wait. */
  enter(member: object): void {
    this.members.set(member, { waiting: 0, busy: 0 });
  }

  /** A check finished. */
  leave(member: object): void {
    this.members.delete(member);
    this.openIfIdle();
  }

  /** An essential request of `member` is in flight (+1) or answered (-1). */
  busy(member: object, change: 1 | -1): void {
    const state = this.members.get(member);
    if (state === undefined) return;
    state.busy += change;
    if (state.busy === 0) this.openIfIdle();
  }

  /** Whether `member` is a running check, whose held samples this gate will release. */
  admits(member: object): boolean {
    return this.members.has(member);
  }

  /** Waits until the essential fetches are done, or the scan's deadline. */
  wait(member: object): Promise<void> {
    const state = this.members.get(member);
    const { deadline } = this;
    if (state === undefined || deadline.aborted) return Promise.resolve();
    state.waiting += 1;
    return new Promise<void>((resolve) => {
      let settled = false;
      const done = (): void => {
        if (settled) return;
        settled = true;
        deadline.removeEventListener("abort", done);
        state.waiting -= 1;
        resolve();
      };
      deadline.addEventListener("abort", done, { once: true });
      this.waiters.push({ member, wake: done });
      this.openIfIdle();
    });
  }

  private openIfIdle(): void {
    if (this.waiters.length === 0) return;
    for (const state of this.members.values()) if (state.waiting === 0 || state.busy > 0) return;
    const waking = takeTurns(this.waiters);
    this.waiters = [];
    for (const wake of waking) wake();
  }
}

/**
 * The waiting samples in turns, one per check each round: the request slots then serve them in that order, so a check
 * with many links does not take all that is left before another's second sample.
 */
function takeTurns(waiters: ReadonlyArray<{ member: object; wake: () => void }>): Array<() => void> {
  const byMember = new Map<object, Array<() => void>>();
  for (const { member, wake } of waiters) byMember.set(member, [...(byMember.get(member) ?? []), wake]);
  const queues = [...byMember.values()];
  const turns: Array<() => void> = [];
  for (let round = 0; turns.length < waiters.length; round += 1)
    for (const queue of queues) {
      const wake = queue[round];
      if (wake !== undefined) turns.push(wake);
    }
  return turns;
}
