import { z } from "zod";
import { boundedMessage } from "../../../src/lib/site-text.ts";
import { absolute } from "../../../src/lib/urls.ts";
import { composeMail, type MailParagraph } from "../../mail/compose.ts";
import type { MailTemplate } from "../../mail/outbox.ts";
import { type Regression, regressionOf } from "../regressions.ts";
import { reportUrl } from "../report-link.ts";
import { findMonitor, type MonitorRow } from "../sql/monitors.ts";
import { findRun, previousRuns, type RunRow } from "../sql/runs.ts";
import { type MonitorMailDeps, monitorMailParts } from "./parts.ts";
import { requestMailTemplate } from "./request.ts";
import { MONITOR_ALERT_MAIL, MONITOR_CONFIRM_MAIL, mailStopped } from "./rules.ts";

const AlertPayload = z.object({ run_id: z.string() });

/**
 * The monitors' e-mails, rendered when they are sent from what the database holds then: a monitor
 * stopped or removed meanwhile gets nothing (the row is cancelled), and links are signed at sending.
 * The monitor's public id is derived again, never stored.
 */
export function monitorMailTemplates(deps: MonitorMailDeps): Record<string, MailTemplate> {
  const parts = monitorMailParts(deps);

  const alert: MailTemplate = async (payload, sentAt) => {
    const { run_id } = AlertPayload.parse(payload);
    const db = deps.db();
    const run = await findRun(db, run_id);
    const monitor = run ? await findMonitor(db, run.monitor_id) : null;
    if (!run || !monitor?.email || monitor.state !== "active") return null;
    const regression = regressionOf(run, await previousRuns(db, monitor.id, run.seq));
    if (!regression) return null;
    const stopped = await mailStopped(db, monitor.email, "alerts", sentAt);
    if (stopped) return stopped;
    const stop = parts.unsubscribeUrl(monitor, sentAt);
    const mail = composeMail(
      alertSubject(monitor, regression),
      [...alertParagraphs(deps, monitor, run, regression), ...parts.page(monitor), parts.unsubscribe(monitor, stop)],
      parts.signature,
    );
    return { ...mail, headers: oneClickUnsubscribe(stop) };
  };

  return { [MONITOR_CONFIRM_MAIL]: requestMailTemplate(deps), [MONITOR_ALERT_MAIL]: alert };
}

/**
 * RFC 8058 one-click unsubscribe: a mail client (or the mailbox provider) POSTs
 * `List-Unsubscribe=One-Click` to the signed link, whose page stops the monitor on a POST from any
 * origin (api/site/page-routes.ts); the link alone is the credential, as in the e-mail's text.
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
        text: `The scheduled check of ${monitor.origin} at ${when} UTC could not judge the site: ${boundedMessage(regression.reason)}. We check again at the next scheduled time and write again only when something changes.`,
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
      // A finding quotes what the site wrote: inert and bounded here too, whatever the run stored.
      text: `${change.id}: ${change.before ?? "absent"} → ${change.after ?? "absent"}. ${boundedMessage(change.message)}`,
    });
  const report = reportUrl(deps.keys, deps.docsUrl, run);
  if (report)
    paragraphs.push({
      text: "The new report, with every finding:",
      link: { label: `Report for ${monitor.host}`, url: report },
    });
  return paragraphs;
}
