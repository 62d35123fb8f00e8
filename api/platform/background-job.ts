import type { Logger } from "./log.ts";

/**
 * Runs `task` every `intervalMs`, never two runs at once; `stop()` waits for a run in progress, so
 * a graceful shutdown does not cut an e-mail or a refund in half.
 */
export class BackgroundJob {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;

  private readonly name: string;
  private readonly task: () => Promise<unknown>;
  private readonly log: Logger;

  constructor(name: string, task: () => Promise<unknown>, log: Logger) {
    this.name = name;
    this.task = task;
    this.log = log;
  }

  start(intervalMs: number): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => this.runNow(), intervalMs);
    this.#timer.unref();
    this.runNow();
  }

  /** Starts a run now unless one is in progress. */
  runNow(): void {
    if (this.#running) return;
    this.#running = this.task()
      .then(() => undefined)
      .catch((error: unknown) =>
        this.log.warn(
          { job: this.name, err: error instanceof Error ? error.message : String(error) },
          "background job failed; it runs again shortly",
        ),
      )
      .finally(() => (this.#running = undefined));
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }
}
