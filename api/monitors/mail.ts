import { z } from "zod";
import { absolute } from "../../src/lib/urls.ts";
import type { Sql } from "../db/sql.ts";
import { composeMail, type MailParagraph } from "../mail/compose.ts";
import type { MailTemplate } from "../mail/outbox.ts";
import type { OutboxRow } from "../mail/outbox-sql.ts";
import type { LookupKeys } from "../platform/credentials/lookup-keys.ts";
import type { SecretRing } from "../platform/secret-ring.ts";
import { issuedPublicId, LINK_TTL_MS, type LinkPurpose, signMonitorLink } from "./keys.ts";
import { type Regression, regressionOf } from "./regressions.ts";
import { reportUrl } from "./report-link.ts";
import { countActiveForEmail, findEmailMonitor, findMonitor, type MonitorRow, removeMonitor } from "./sql/monitors.ts";
import { findRun, previousRuns, type RunRow } from "./sql/runs.ts";

export const MONITOR_CONFIRM_MAIL = "monitor-confirm";
export const MONITOR_ALERT_MAIL = "monitor-alert";

export interface MonitorMailDeps {
  db: () => Sql;
  secrets: SecretRing;
  keys: LookupKeys;
  docsUrl: string;
  siteUrl: string;
  serviceName: string;
  contactEmail: string;
  freeSites: () => number;
}

const ConfirmPayload = z.object({ email: z.string(), origin: z.string() });
const AlertPayload = z.object({ run_id: z.string() });

/**
 * The monitors' e-mails, rendered when they are sent from what the database holds then: a monitor
 * stopped or removed meanwhile gets nothing (the row is cancelled), and links are signed at sending.
 * The monitor's public id is derived again, never stored.
 */
export function monitorMailTemplates(deps: MonitorMailDeps): Record<string, MailTemplate> {
  const signature = `${deps.serviceName} · ${deps.siteUrl} · questions: ${deps.contactEmail}`;
  const link = (purpose: LinkPurpose, monitor: MonitorRow, expiresAt: Date) =>
    absolute(
      deps.docsUrl,
      `/monitors/${purpose}/${signMonitorLink(deps.secrets.current, purpose, monitor.id, expiresAt)}`,
    );
  const unsubscribeUrl = (monitor: MonitorRow, sentAt: Date) =>
    link("unsubscribe", monitor, new Date(sentAt.getTime() + LINK_TTL_MS.unsubscribe));
  const unsubscribe = (monitor: MonitorRow, url: string): MailParagraph => ({
    text: `To stop watching ${monitor.host} and get no more e-mail about it:`,
    link: { label: "Unsubscribe", url },
  });
  const page = (monitor: MonitorRow): MailParagraph[] => {
    const publicId = issuedPublicId(deps.secrets, monitor.id, monitor.key_hash);
    if (!publicId) return [];
    return [
      {
        text: `Its history, the score over time and the badge to embed are on the monitor's page (keep the link private: it is the key to the page):`,
        link: { label: `Monitor for ${monitor.host}`, url: absolute(deps.docsUrl, `/monitors/${publicId}`) },
      },
    ];
  };

  const confirm: MailTemplate = async (payload, sentAt) => {
    const { email, origin } = ConfirmPayload.parse(payload);
    const db = deps.db();
    const monitor = await findEmailMonitor(db, email, origin);
    if (!monitor || monitor.state === "stopped") return null;
    if (monitor.state === "active") {
      return composeMail(
        `You already watch ${monitor.host}`,
        [
          {
            text: `Someone asked to watch ${monitor.host} for this address, which already watches it ${monitor.frequency}. Nothing changed.`,
          },
          ...page(monitor),
          unsubscribe(monitor, unsubscribeUrl(monitor, sentAt)),
        ],
        signature,
      );
    }
    const expiresAt = new Date(new Date(monitor.created_at).getTime() + LINK_TTL_MS.confirm);
    if (expiresAt.getTime() <= sentAt.getTime()) return null;
    const paragraphs: MailParagraph[] = [
      {
        text: `Someone (we hope you) asked to watch the agent readiness of ${monitor.host} for this address: a check ${monitor.frequency === "daily" ? "every day" : "every week"}, its history kept, and an e-mail when the site gets worse. Nothing is checked until you confirm:`,
        link: { label: `Confirm watching ${monitor.host}`, url: link("confirm", monitor, expiresAt) },
      },
      {
        text: "The link works for 7 days. If you did not ask, ignore this e-mail: nothing happens, and the request is forgotten.",
      },
    ];
    const active = await countActiveForEmail(db, email);
    if (active >= deps.freeSites())
      paragraphs.push({
        text: `This address already watches ${active} sites, the free plan's limit: stop one (the unsubscribe link in its e-mails) before you confirm.`,
      });
    return composeMail(`Confirm: watch ${monitor.host}`, paragraphs, signature);
  };

  const alert: MailTemplate = async (payload, sentAt) => {
    const { run_id } = AlertPayload.parse(payload);
    const db = deps.db();
    const run = await findRun(db, run_id);
    const monitor = run ? await findMonitor(db, run.monitor_id) : null;
    if (!run || !monitor || monitor.state !== "active") return null;
    const regression = regressionOf(run, await previousRuns(db, monitor.id, run.seq));
    if (!regression) return null;
    const stop = unsubscribeUrl(monitor, sentAt);
    const mail = composeMail(
      alertSubject(monitor, regression),
      [...alertParagraphs(deps, monitor, run, regression), ...page(monitor), unsubscribe(monitor, stop)],
      signature,
    );
    return { ...mail, headers: oneClickUnsubscribe(stop) };
  };

  return { [MONITOR_CONFIRM_MAIL]: confirm, [MONITOR_ALERT_MAIL]: alert };
}

/**
 * RFC 8058 one-click unsubscribe: a mail client (or the mailbox provider) POSTs
 * `List-Unsubscribe=One-Click` to the signed link, whose page stops the monitor on any POST from
 * anywhere but a cross-site browser form; the link alone is the credential, as in the e-mail's text.
 */
function oneClickUnsubscribe(url: string): Record<string, string> {
  return { "List-Unsubscribe": `<${url}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
}

function alertSubject(monitor: MonitorRow, regression: Regression): string {
  if (regression.kind === "unreachable") return `${monitor.host} could not be checked`;
  if (regression.score) return `${monitor.host} got worse: ${regression.score.before}% → ${regression.score.after}%`;
  return `${monitor.host} got worse: ${regression.checks.length} check${regression.checks.length === 1 ? "" : "s"} no longer pass`;
}

function alertParagraphs(
  deps: MonitorMailDeps,
  monitor: MonitorRow,
  run: RunRow,
  regression: Regression,
): MailParagraph[] {
  const when = run.finished_at.replace("T", " ").slice(0, 16);
  if (regression.kind === "unreachable")
    return [
      {
        text: `The scheduled check of ${monitor.origin} at ${when} UTC could not judge the site: ${regression.reason}. We check again at the next scheduled time and write again only when something changes.`,
      },
    ];
  const paragraphs: MailParagraph[] = [
    {
      text: `The scheduled check of ${monitor.origin} at ${when} UTC found it worse than the check before${regression.score ? `: the score fell from ${regression.score.before}% to ${regression.score.after}%` : ""}.`,
    },
  ];
  if (regression.suite)
    paragraphs.push({
      text: `The check suite changed between these two runs (${regression.suite.before ?? "unknown"} → ${regression.suite.after ?? "unknown"}): stricter or new checks may account for some of this, not a change to your site. The catalogue says what each check asks: ${absolute(deps.docsUrl, "/docs/checks/catalogue")}`,
    });
  for (const change of regression.checks)
    paragraphs.push({
      text: `${change.id}: ${change.before ?? "absent"} → ${change.after ?? "absent"}. ${change.message}`,
    });
  const report = reportUrl(deps.keys, deps.docsUrl, run);
  if (report)
    paragraphs.push({
      text: "The new report, with every finding:",
      link: { label: `Report for ${monitor.host}`, url: report },
    });
  return paragraphs;
}

/**
 * A monitor's address refused for good (no such mailbox): nothing can reach its owner any more, so
 * the monitor is removed with its history, as an unconfirmed one is after a week.
 */
export function monitorBounces(db: () => Sql): Record<string, (row: OutboxRow) => Promise<void>> {
  const removeByConfirm = async (row: OutboxRow) => {
    const parsed = ConfirmPayload.safeParse(row.payload);
    const monitor = parsed.success ? await findEmailMonitor(db(), parsed.data.email, parsed.data.origin) : null;
    if (monitor) await removeMonitor(db(), monitor.id);
  };
  const removeByAlert = async (row: OutboxRow) => {
    const parsed = AlertPayload.safeParse(row.payload);
    const run = parsed.success ? await findRun(db(), parsed.data.run_id) : null;
    if (run) await removeMonitor(db(), run.monitor_id);
  };
  return { [MONITOR_CONFIRM_MAIL]: removeByConfirm, [MONITOR_ALERT_MAIL]: removeByAlert };
}
