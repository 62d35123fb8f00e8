import pino from "pino";

/**
 * Standard output, written once per turn of the event loop: the lines of every request handled in
 * a turn go out in one write when it ends, instead of one write each (a write per request cost
 * about 10 µs on the benchmark machine). The write itself is pino's synchronous one, so order is
 * kept and a slow reader is waited for; what is pending is written out when the process exits, and
 * only a kill -9 can lose the lines of the last turn. pino's asynchronous mode, tried first, made
 * the p99 of database writes worse (its writes run on the thread pool beside the database's).
 *
 * Made `held`, it keeps every line until `release()`, so the plain-text start banner comes before
 * the first JSON line; exiting writes held lines too, so a failed start still shows its logs.
 */
export class StdoutOncePerTurn implements pino.DestinationStream {
  readonly #out = pino.destination({ dest: 1, sync: true });
  #pending = "";
  #scheduled = false;
  #held: boolean;

  constructor(options: { held?: boolean } = {}) {
    this.#held = options.held ?? false;
    process.once("exit", () => this.release());
  }

  /** Writes what was held, and from now on writes once per turn. */
  release(): void {
    this.#held = false;
    this.flush();
  }

  write(line: string): void {
    this.#pending += line;
    if (this.#scheduled || this.#held) return;
    this.#scheduled = true;
    setImmediate(() => this.flush());
  }

  flush(): void {
    this.#scheduled = false;
    if (this.#held || !this.#pending) return;
    const lines = this.#pending;
    this.#pending = "";
    this.#out.write(lines);
  }
}
