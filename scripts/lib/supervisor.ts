import type { Started } from "../bench/lib/processes.ts";

/** How long to wait before starting a dead process again: doubled after each death, reset once it stays up. */
export interface Backoff {
  firstMs: number;
  maxMs: number;
  /** Up this long before dying, a process starts the next time after `firstMs` again. */
  stableMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { firstMs: 1_000, maxMs: 30_000, stableMs: 60_000 };

/** "exited with code 1", "was killed by SIGKILL": how a process ended, as `exit` reports it. */
export function howItEnded(code: number | null, signal: NodeJS.Signals | null): string {
  if (signal) return `was killed by ${signal}`;
  return `exited with code ${code}`;
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/**
 * Keeps one process of a deployment running (an API instance of `npm run cluster`): when it ends
 * without being asked to, it says so — which one, how it ended, where its log is — and starts it
 * again after a backoff (1 s, 2 s, 4 s … up to `maxMs`, back to 1 s once it had stayed up
 * `stableMs`), then says when it answers again. `stop` ends it for good.
 */
export class Supervised {
  #current: Started | undefined;
  #startedAt = 0;
  #deaths = 0;
  #stopping = false;
  #retry: NodeJS.Timeout | undefined;

  private readonly name: string;
  private readonly logFile: string;
  private readonly launch: () => Promise<Started>;
  private readonly say: (line: string) => void;
  private readonly backoff: Backoff;
  private readonly now: () => number;

  constructor(options: {
    /** How the messages name it: "instance 2". */
    name: string;
    /** Where its output goes, for the message that says it died. */
    logFile: string;
    /** Starts it and resolves once it answers (or rejects). */
    launch: () => Promise<Started>;
    say: (line: string) => void;
    backoff?: Backoff;
    now?: () => number;
  }) {
    this.name = options.name;
    this.logFile = options.logFile;
    this.launch = options.launch;
    this.say = options.say;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.now = options.now ?? Date.now;
  }

  /** The process running now, if any. */
  get current(): Started | undefined {
    return this.#current;
  }

  /** The first start: a failure here is the caller's (the deployment does not come up). */
  async start(): Promise<Started> {
    const started = await this.launch();
    this.#watch(started);
    return started;
  }

  async stop(): Promise<void> {
    this.#stopping = true;
    clearTimeout(this.#retry);
    await this.#current?.stop();
  }

  #watch(started: Started): void {
    this.#current = started;
    this.#startedAt = this.now();
    const { child } = started;
    const ended = (code: number | null, signal: NodeJS.Signals | null) => {
      if (this.#current === started) this.#current = undefined;
      if (this.#stopping) return;
      const upMs = this.now() - this.#startedAt;
      if (upMs >= this.backoff.stableMs) this.#deaths = 0;
      this.say(
        `${this.name} (pid ${child.pid}) ${howItEnded(code, signal)} after ${seconds(upMs)} up; its log: ${this.logFile}.`,
      );
      this.#scheduleRestart();
    };
    // It may have died between answering and being watched: `exit` was emitted already.
    if (child.exitCode !== null || child.signalCode !== null) ended(child.exitCode, child.signalCode);
    else child.once("exit", ended);
  }

  #scheduleRestart(): void {
    const delay = Math.min(this.backoff.firstMs * 2 ** this.#deaths, this.backoff.maxMs);
    this.#deaths += 1;
    this.say(`Starting ${this.name} again in ${seconds(delay)}.`);
    this.#retry = setTimeout(() => void this.#restart(), delay);
  }

  async #restart(): Promise<void> {
    if (this.#stopping) return;
    try {
      const started = await this.launch();
      if (this.#stopping) {
        await started.stop();
        return;
      }
      this.#watch(started);
      this.say(`${this.name} is back (pid ${started.child.pid}) at ${started.url}.`);
    } catch (error) {
      if (this.#stopping) return;
      this.say(`${this.name} did not start: ${error instanceof Error ? error.message : String(error)}.`);
      this.#scheduleRestart();
    }
  }
}
