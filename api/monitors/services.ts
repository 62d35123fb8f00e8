import type { Content } from "../../src/content/model.ts";
import type { Config } from "../config.ts";
import type { Sql } from "../db/sql.ts";
import type { LookupKeys } from "../platform/credentials/lookup-keys.ts";
import type { Logger } from "../platform/log.ts";
import type { SecretRing } from "../platform/secret-ring.ts";
import type { MonitorMailDeps } from "./mail/parts.ts";
import { type CheckedSite, MonitorScheduler } from "./scheduler.ts";
import { MonitorService } from "./service.ts";
import type { MonitorRow } from "./sql/monitors.ts";
import type { VettedTarget } from "./target.ts";

export interface MonitorServices {
  monitors: MonitorService;
  /** Runs due monitors: the server on a timer, `npm run admin -- monitors run-due` once. */
  scheduler: MonitorScheduler;
}

/** What monitors need of the readiness checks: wired in api/wiring/compose.ts, so this feature never imports that one. */
export interface MonitorChecker {
  /** The origin a check of `domain` would reach; the `target-not-allowed` problem for a refused target. */
  vet(domain: string): Promise<VettedTarget>;
  /** Whether `host` (`host[:port]`) is a CHECKS_ALLOWED_TARGETS entry's: local work, never production. */
  isLocalHost(host: string): boolean;
  /** Runs and stores a check of the monitor's origin. */
  check(monitor: MonitorRow): Promise<CheckedSite>;
  /** Whether checks may run now (the `checks` switch). */
  isOpen(): Promise<boolean>;
  /** The longest one check may take (its whole-scan budget). */
  budgetMs: number;
}

export interface MonitorServicesDeps {
  config: Pick<Config, "siteUrl" | "docsUrl" | "monitors">;
  content: Content;
  db: () => Sql;
  now: () => Date;
  secrets: SecretRing;
  keys: LookupKeys;
  checker: MonitorChecker;
  log: Logger;
}

/** Watching sites: the service behind the operations, and the scheduler that runs what is due. */
export function createMonitorServices({
  config,
  content,
  db,
  now,
  secrets,
  keys,
  checker,
  log,
}: MonitorServicesDeps): MonitorServices {
  const freeSites = () => content.pricing.monitors.free_sites;
  const monitors = new MonitorService({
    db,
    now,
    secrets,
    keys,
    siteUrl: config.siteUrl,
    docsUrl: config.docsUrl,
    freeSites,
    vetTarget: (domain) => checker.vet(domain),
    isLocalHost: (host) => checker.isLocalHost(host),
  });
  const scheduler = new MonitorScheduler({
    db,
    now,
    check: (monitor) => checker.check(monitor),
    isOpen: () => checker.isOpen(),
    concurrency: config.monitors.concurrency,
    // Twice the scan's budget and a margin for storing the report: only a dead instance loses a claim.
    leaseMs: 2 * checker.budgetMs + 30_000,
    keys,
    log,
  });
  return { monitors, scheduler };
}

/** What the monitors' e-mails need to render (api/wiring/mail-templates.ts); the staff CLI builds it too. */
export function monitorMailDeps(
  config: Pick<Config, "siteUrl" | "docsUrl">,
  content: Content,
  db: () => Sql,
  secrets: SecretRing,
  keys: LookupKeys,
): MonitorMailDeps {
  return {
    db,
    secrets,
    keys,
    docsUrl: config.docsUrl,
    siteUrl: config.siteUrl,
    serviceName: content.service.name,
    contactEmail: content.service.contact.email,
    freeSites: () => content.pricing.monitors.free_sites,
  };
}
