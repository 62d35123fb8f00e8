import { BackgroundJob } from "../platform/background-job.ts";
import type { Logger } from "../platform/log.ts";
import type { AppServices } from "./app-services.ts";

/**
 * Scheduled re-checks of watched sites, every `intervalMs` (MONITORS_INTERVAL_MS; 0 runs none). Every
 * instance may run it: due monitors are claimed in the database with a lease (api/monitors/scheduler.ts).
 */
export function startMonitorJob(
  services: Pick<AppServices, "scheduler">,
  log: Logger,
  intervalMs: number,
): { stop: () => Promise<void> } {
  if (intervalMs === 0) return { stop: async () => undefined };
  const job = new BackgroundJob("monitors", () => services.scheduler.runDue(), log);
  job.start(intervalMs);
  return {
    stop: async () => {
      services.scheduler.stop();
      await job.stop();
    },
  };
}

/**
 * The server's background work for the store: sending the e-mail outbox (only with SMTP_URL; without
 * it messages wait, see `npm run admin -- outbox list`) and retrying automatic refunds the provider
 * could not take when they were due (only with payments). Every instance may run these: rows are
 * claimed in the database and refunds carry idempotency keys.
 */
export function startCommerceJobs(
  services: Pick<AppServices, "mail" | "payments" | "store">,
  log: Logger,
  intervals = { mailMs: 2_000, refundsMs: 60_000 },
): { stop: () => Promise<void> } {
  const jobs: BackgroundJob[] = [];
  if (services.mail.configured) {
    const mail = new BackgroundJob("mail-outbox", () => services.mail.deliverDue(), log);
    mail.start(intervals.mailMs);
    jobs.push(mail);
  }
  if (services.payments) {
    const refunds = new BackgroundJob("store-refunds", () => services.store.fulfilment.retryPendingRefunds(), log);
    refunds.start(intervals.refundsMs);
    jobs.push(refunds);
  }
  return { stop: async () => void (await Promise.all(jobs.map((job) => job.stop()))) };
}

/**
 * The authorization server's housekeeping: records (codes, tokens, sessions, interactions) a day past
 * their expiry are deleted, every ten minutes. Any instance may run it; a delete is idempotent.
 */
export function startOAuthHousekeeping(
  services: Pick<AppServices, "oauth">,
  log: Logger,
  intervalMs = 600_000,
): { stop: () => Promise<void> } {
  const job = new BackgroundJob("oauth-housekeeping", () => services.oauth.purgeExpired(), log);
  // Nothing is due at start: the first run waits a whole interval, so starting (and a quick stop) costs nothing.
  const first = setTimeout(() => job.start(intervalMs), intervalMs);
  first.unref();
  return {
    stop: async () => {
      clearTimeout(first);
      await job.stop();
    },
  };
}
