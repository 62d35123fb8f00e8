import { access, constants } from "node:fs/promises";
import type { ComponentHealth, ServiceState } from "../../../src/lib/discovery/state.ts";
import { COMPONENTS, type Component, DEFAULT_SWITCHES, type Switches } from "../../../src/lib/switches.ts";
import type { Database } from "../../db/database.ts";
import { readSwitches } from "./switches-sql.ts";

export interface StateSources {
  database: Database;
  /** Re-applies migrations to a database file that was replaced or came back. */
  onDatabaseReopened: () => Promise<void>;
  paymentsConfigured: () => boolean;
  mailConfigured: () => boolean;
  filesDir: string;
  now: () => Date;
  /** How long a reading stays fresh; switches and outages show on every instance within it. */
  ttlMs: number;
}

/**
 * What the service can do right now: staff switches (from the database) and each component's
 * health, read at most once per `ttlMs` however many requests ask.
 */
export class ServiceStateMonitor {
  #state: ServiceState | undefined;
  #readAt = 0;
  #pending: Promise<ServiceState> | undefined;
  #switches: Switches = { ...DEFAULT_SWITCHES };

  private readonly sources: StateSources;

  constructor(sources: StateSources) {
    this.sources = sources;
  }

  async current(): Promise<ServiceState> {
    const fresh = this.peek();
    if (fresh) return fresh;
    this.#pending ??= this.#read().finally(() => (this.#pending = undefined));
    return this.#pending;
  }

  /**
   * The reading when it is still fresh, else undefined; never waits for anything (hot routes use it).
   * Past half its life it starts the next reading in the background, so an instance under steady
   * traffic never finds it stale: against a libSQL server a reading is two round trips, and every
   * request arriving while one was awaited waited for it (/agents/me through sqld lost most of its
   * throughput to that once a second).
   */
  peek(): ServiceState | undefined {
    if (!this.#state) return undefined;
    const age = this.sources.now().getTime() - this.#readAt;
    if (age >= this.sources.ttlMs) return undefined;
    if (age * 2 >= this.sources.ttlMs && !this.#pending) {
      this.#pending = this.#read().finally(() => (this.#pending = undefined));
      // A failed reading leaves the current one to expire; the next request reads again.
      this.#pending.catch(() => undefined);
    }
    return this.#state;
  }

  /** Forget the reading (after a write to switches, or a database error), so the next is fresh. */
  invalidate(): void {
    this.#state = undefined;
  }

  async #read(): Promise<ServiceState> {
    const components = {} as Record<Component, ComponentHealth>;
    const probe = await this.sources.database.probe();
    if (probe === "reopened") await this.sources.onDatabaseReopened().catch(() => undefined);
    const databaseUp = probe !== "unavailable";
    components.database = databaseUp ? "configured" : "unavailable";
    if (databaseUp) {
      try {
        this.#switches = await readSwitches(this.sources.database.client);
      } catch {
        components.database = "unavailable";
      }
    }
    components.payments = this.sources.paymentsConfigured() ? "configured" : "not-configured";
    components.mail = this.sources.mailConfigured() ? "configured" : "not-configured";
    components.files = (await readable(this.sources.filesDir)) ? "ok" : "unavailable";
    for (const component of COMPONENTS) components[component] ??= "unavailable";
    const checkedAt = this.sources.now();
    this.#state = { switches: { ...this.#switches }, components, checkedAt: checkedAt.toISOString() };
    this.#readAt = checkedAt.getTime();
    return this.#state;
  }
}

async function readable(dir: string): Promise<boolean> {
  try {
    await access(dir, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}
