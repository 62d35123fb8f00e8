import { isIP } from "node:net";
import { findOperation } from "../../src/lib/registry.ts";
import { absolute } from "../../src/lib/urls.ts";
import type { ReadinessSummary } from "../../src/schemas/report.ts";
import type { AgentMonitorInput } from "../../src/schemas/requests/monitors.ts";
import type { WatchOffer } from "../../src/schemas/responses/checks.ts";
import { monitorOrigin } from "../monitors/target.ts";
import { describeNonPublicAddress, describeReservedName } from "./engine/fetch/address-guard.ts";
import { type CheckerSettings, isAllowListed } from "./engine/settings.ts";

export interface WatchDeps {
  settings: CheckerSettings;
  siteUrl: string;
  docsUrl: string;
}

/** The page where people ask to watch a site; `?domain=` fills the form in. */
export const MONITOR_FORM_PATH = "/monitors";

/**
 * Why monitors would refuse the report's origin today, judged without DNS (a report read sends nothing): a target
 * that was checked under a CHECKS_ALLOWED_TARGETS allowance since withdrawn, a non-public address or a private name.
 * A name whose DNS has moved to a private address is refused when the monitor is created, with the same 422.
 */
function refusal(url: URL, settings: CheckerSettings): string | null {
  if (isAllowListed(url, settings)) return null;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const why = isIP(host) === 0 ? describeReservedName(host) : describeNonPublicAddress(host);
  return why === null ? null : `Monitors watch public sites only: ${why}.`;
}

/**
 * The monitor create body for the report's site: the host (a monitor checks it over https), or the whole origin when
 * it is allow-listed (local work keeps its scheme and port); the profile too when the check was run with one chosen.
 */
function monitorBody(url: URL, report: Pick<ReadinessSummary, "profile">, allowListed: boolean): AgentMonitorInput {
  const watched = monitorOrigin({ origin: url.origin, allowListed });
  const domain = allowListed ? watched : new URL(watched).hostname;
  const { applied, overridden } = report.profile;
  return overridden && applied.length > 0 ? { domain, profile: applied } : { domain };
}

/**
 * How to watch the report's site: the form for people, the API request and the MCP tool for agents, all
 * with one body; or why not. `monitorsOpen` is whether creating a monitor works now (the checks switch, the database).
 */
export function watchOffer(
  deps: WatchDeps,
  report: Pick<ReadinessSummary, "target" | "profile">,
  monitorsOpen: boolean,
): WatchOffer {
  const url = new URL(report.target.origin);
  const refused = refusal(url, deps.settings);
  if (refused !== null) return { available: false, reason: refused };
  if (!monitorsOpen)
    return {
      available: false,
      reason: "Monitors are paused for now, with the checks they run; /api/v1/config shows when they are back.",
    };
  const body = monitorBody(url, report, isAllowListed(url, deps.settings));
  return {
    available: true,
    domain: body.domain,
    form: absolute(deps.docsUrl, `${MONITOR_FORM_PATH}?${new URLSearchParams({ domain: body.domain })}`),
    request: {
      method: "POST",
      url: absolute(deps.siteUrl, findOperation("createAgentMonitor").path),
      scope: "monitors:write",
      body,
    },
    tool: { name: "create_monitor", arguments: body },
  };
}

/** The offer as the Markdown report ends: a section an agent reading `text/markdown` can act on. */
export function watchMarkdown(offer: WatchOffer): string {
  if (!offer.available) return `## Watch this site\n\n${offer.reason}\n`;
  const body = JSON.stringify(offer.request.body);
  return [
    "## Watch this site",
    "",
    "A check every day or every week, every run kept, and the history to compare runs.",
    "",
    `- As an agent: POST ${offer.request.url} with ${body} and a token of the scope ${offer.request.scope}, or call the MCP tool ${offer.tool.name} with ${body}`,
    `- As a person: ${offer.form}`,
    "",
  ].join("\n");
}
