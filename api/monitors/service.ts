import { randomUUID } from "node:crypto";
import type { MonitorPage } from "../../src/lib/page-services.ts";
import { absolute } from "../../src/lib/urls.ts";
import { type Profile, ProfileSchema } from "../../src/schemas/report.ts";
import type { AgentMonitorInput, MonitorInput, MonitorLink } from "../../src/schemas/requests/monitors.ts";
import type { AgentMonitor, MonitorLinkResult, MonitorRun, MonitorView } from "../../src/schemas/responses/monitors.ts";
import type { Sql } from "../db/sql.ts";
import type { LookupKeys } from "../platform/credentials/lookup-keys.ts";
import { ApiProblem } from "../platform/problem.ts";
import type { SecretRing } from "../platform/secret-ring.ts";
import { type Badge, monitorBadge } from "./badge.ts";
import {
  derivePublicId,
  isPublicId,
  issuedPublicId,
  type LinkPurpose,
  publicIdHash,
  verifyMonitorLink,
} from "./keys.ts";
import { requestMailStatements } from "./mail/request.ts";
import { PENDING_PER_ADDRESS, REQUEST_MAILS_PER_DAY } from "./mail/rules.ts";
import { changedChecks } from "./regressions.ts";
import { reportUrl } from "./report-link.ts";
import {
  confirmMonitor,
  findAgentMonitor,
  findMonitor,
  findMonitorByKey,
  insertAgentMonitor,
  listAgentMonitors,
  type MonitorRow,
  type NewMonitor,
  requestEmailMonitorStatement,
  stopMonitor,
} from "./sql/monitors.ts";
import { listRuns, type RunRow } from "./sql/runs.ts";
import { monitorOrigin, type VettedTarget } from "./target.ts";

export interface MonitorServiceDeps {
  db: () => Sql;
  now: () => Date;
  secrets: SecretRing;
  keys: LookupKeys;
  siteUrl: string;
  docsUrl: string;
  /** Sites one address or one agent registration may watch (content/pricing.yaml, `monitors.free_sites`). */
  freeSites: () => number;
  /** The origin the checker would check for `domain`; throws the `target-not-allowed` problem for a refused one. */
  vetTarget: (domain: string) => Promise<VettedTarget>;
  /** Whether `host` is a CHECKS_ALLOWED_TARGETS entry's (local work: its monitors may watch plain http). */
  isLocalHost: (host: string) => boolean;
}

export const monitorPath = (publicId: string) => `/monitors/${publicId}`;
export const monitorApiPath = (publicId: string) => `/api/v1/monitors/${publicId}`;
export const badgePath = (host: string) => `/badge/${host}.svg`;

/**
 * The monitor page's chart shows this many of the latest runs. At least HISTORY_PAGE + 1: the page
 * reads them once and takes the history's first page and the latest run from them.
 */
const CHART_RUNS = 200;

/** A page of history holds this many runs unless the caller asks for fewer. */
export const HISTORY_PAGE = 20;

const REQUESTED = `If this address can receive mail, a message with a confirmation link is on its way (an address gets at most ${REQUEST_MAILS_PER_DAY} a day, each listing every site waiting for it). Nothing is checked until the link is followed; an unconfirmed request is forgotten after 7 days.`;

function profileOf(input: AgentMonitorInput): Profile[] | null {
  return input.profile === undefined ? null : ProfileSchema.array().parse([input.profile].flat());
}

/** Watching sites: asking and confirming by e-mail, an agent's own monitors, reading a monitor and its history. */
export class MonitorService {
  private readonly deps: MonitorServiceDeps;

  constructor(deps: MonitorServiceDeps) {
    this.deps = deps;
  }

  async #newMonitor(input: AgentMonitorInput, owner: NewMonitor["owner"]): Promise<NewMonitor> {
    const origin = monitorOrigin(await this.deps.vetTarget(input.domain));
    const id = randomUUID();
    return {
      id,
      key_hash: publicIdHash(derivePublicId(this.deps.secrets.current, id)),
      origin,
      host: new URL(origin).host,
      input: input.domain,
      profile: profileOf(input),
      frequency: input.frequency ?? "weekly",
      created_at: this.deps.now().toISOString(),
      owner,
    };
  }

  /**
   * Asks to watch a site for an address: the monitor (pending) and its share of an e-mail are written
   * in one batch. The answer is the same whatever the address already watches, so it reveals nothing;
   * the e-mail says the rest. An address gets at most a few such e-mails a day, each listing every site
   * waiting for its confirmation (api/monitors/mail/rules.ts).
   */
  async request(input: MonitorInput): Promise<{ status: "received"; detail: string }> {
    const email = input.email.toLowerCase();
    const monitor = await this.#newMonitor(input, { email });
    await this.deps
      .db()
      .batch(
        [
          requestEmailMonitorStatement(monitor, PENDING_PER_ADDRESS),
          ...requestMailStatements(email, monitor.origin, monitor.created_at),
        ],
        "write",
      );
    return { status: "received", detail: REQUESTED };
  }

  /** An agent's monitor, scheduled at once: `created` is false when this agent already watched the site. */
  async createForAgent(
    agentId: string,
    input: AgentMonitorInput,
  ): Promise<{ monitor: AgentMonitor; created: boolean }> {
    const monitor = await this.#newMonitor(input, { agent_id: agentId });
    const db = this.deps.db();
    const inserted = await insertAgentMonitor(db, monitor, this.deps.freeSites());
    if (inserted) return { monitor: await this.summary(inserted), created: true };
    const existing = await findAgentMonitor(db, agentId, monitor.origin);
    if (existing) return { monitor: await this.summary(existing), created: false };
    throw new ApiProblem(
      "monitor-limit-reached",
      `This registration already watches ${this.deps.freeSites()} sites, the free plan's limit (/pricing.json).`,
    );
  }

  async listForAgent(agentId: string): Promise<{ data: AgentMonitor[] }> {
    const monitors = await listAgentMonitors(this.deps.db(), agentId);
    return { data: await Promise.all(monitors.map((monitor) => this.summary(monitor))) };
  }

  /** The monitor a public id names, or `null`: the id is the credential, so any other answer says nothing. */
  async find(publicId: string): Promise<MonitorRow | null> {
    return isPublicId(publicId) ? findMonitorByKey(this.deps.db(), publicIdHash(publicId)) : null;
  }

  publicIdOf(monitor: MonitorRow): string {
    const id = issuedPublicId(this.deps.secrets, monitor.id, monitor.key_hash);
    // Only a retired server secret loses it; the monitor can no longer be shown to anyone then.
    if (id === null) throw new ApiProblem("not-found", "This monitor was issued under a retired server secret.");
    return id;
  }

  /** The monitor without its history, with its latest run (read here unless the caller has just read it). */
  async summary(monitor: MonitorRow, newest?: RunRow[]): Promise<AgentMonitor> {
    const publicId = this.publicIdOf(monitor);
    const [latest] = newest ?? (await listRuns(this.deps.db(), monitor.id, 1));
    const svg = absolute(this.deps.siteUrl, badgePath(monitor.host));
    const page = absolute(this.deps.docsUrl, monitorPath(publicId));
    const alt = `Agent readiness of ${monitor.host}`;
    // The badge links to the checks page, not to the monitor: its id is the credential to the history.
    const link = absolute(this.deps.docsUrl, "/checks");
    return {
      id: publicId,
      url: page,
      domain: monitor.host,
      origin: monitor.origin,
      frequency: monitor.frequency,
      profile: monitor.profile,
      state: monitor.state === "stopped" ? "stopped" : "active",
      alerts: monitor.email ? "email" : "none",
      created_at: monitor.created_at,
      next_run_at: monitor.next_run_at,
      latest: latest ? this.run(latest) : null,
      badge: {
        svg,
        markdown: `[![${alt}](${svg})](${link})`,
        html: `<a href="${link}"><img src="${svg}" alt="${alt}" height="20"></a>`,
      },
    };
  }

  /** The monitor and a page of its history, newest first; `before` is the cursor of the previous page's `next`. */
  async view(monitor: MonitorRow, page: { before?: number; limit?: number } = {}): Promise<MonitorView> {
    const limit = page.limit ?? HISTORY_PAGE;
    return this.#viewOf(
      monitor,
      await listRuns(this.deps.db(), monitor.id, limit + 1, page.before),
      page.before,
      limit,
    );
  }

  /** The view from `runs`, the page's rows and one more (newest first): the first page's newest is the latest run. */
  async #viewOf(monitor: MonitorRow, runs: RunRow[], before: number | undefined, limit: number): Promise<MonitorView> {
    const shown = runs.slice(0, limit);
    const summary = await this.summary(monitor, before === undefined ? runs : undefined);
    const last = shown.at(-1);
    const next =
      runs.length > limit && last
        ? absolute(this.deps.siteUrl, `${monitorApiPath(summary.id)}?before=${last.seq}&limit=${limit}`)
        : null;
    return { ...summary, history: { data: shown.map((run) => this.run(run)), next } };
  }

  /** The page of a monitor: its view, its latest runs for the chart, and the checks that changed between two runs. */
  async page(monitor: MonitorRow, compare: { from?: string; to?: string }): Promise<MonitorPage> {
    // One read for the chart serves the history's first page and the latest run too.
    const newest = await listRuns(this.deps.db(), monitor.id, CHART_RUNS);
    const view = await this.#viewOf(monitor, newest.slice(0, HISTORY_PAGE + 1), undefined, HISTORY_PAGE);
    const rows = [...newest].reverse();
    const pick = (id: string | undefined, fallback: RunRow | undefined) =>
      rows.find((run) => run.id === id) ?? fallback;
    const to = pick(compare.to, rows.at(-1));
    const from = pick(compare.from, rows.at(-2));
    const comparison =
      from && to ? { from: this.run(from), to: this.run(to), changes: changedChecks(from.checks, to.checks) } : null;
    return { monitor: view, runs: rows.map((run) => this.run(run)), comparison };
  }

  run(run: RunRow): MonitorRun {
    return {
      id: run.id,
      scheduled_for: run.scheduled_for,
      started_at: run.started_at,
      finished_at: run.finished_at,
      outcome: run.outcome,
      reason: run.reason,
      score: run.score,
      level: run.level,
      level_name: run.level_name,
      incomplete: run.incomplete,
      suite_version: run.suite_version,
      report: reportUrl(this.deps.keys, this.deps.docsUrl, run),
      checks: Object.fromEntries(Object.entries(run.checks).map(([id, check]) => [id, check.status])),
      alerted: run.alerted,
    };
  }

  badge(domain: string): Promise<Badge> {
    return monitorBadge(this.deps.db(), domain, this.deps.isLocalHost);
  }

  /** The monitor an e-mailed link names, whatever its state; `null` for a link that is invalid or expired. */
  async fromLink(purpose: LinkPurpose, token: string): Promise<MonitorRow | null> {
    const checked = verifyMonitorLink(this.deps.secrets, purpose, token, this.deps.now());
    return checked.ok ? findMonitor(this.deps.db(), checked.subject) : null;
  }

  #linkResult(monitor: MonitorRow, state: MonitorLinkResult["state"], detail: string): MonitorLinkResult {
    return {
      state,
      domain: monitor.host,
      url: absolute(this.deps.docsUrl, monitorPath(this.publicIdOf(monitor))),
      detail,
    };
  }

  /** Follows a confirmation link: the monitor becomes active and its first run is due now. Repeating it changes nothing. */
  async confirm({ token }: MonitorLink): Promise<MonitorLinkResult> {
    const monitor = await this.fromLink("confirm", token);
    if (!monitor || monitor.state === "stopped") throw invalidLink();
    const db = this.deps.db();
    const confirmed = await confirmMonitor(db, monitor.id, this.deps.now().toISOString(), this.deps.freeSites());
    const current = confirmed ?? (await findMonitor(db, monitor.id));
    if (current?.state === "active")
      return this.#linkResult(
        current,
        "active",
        `${current.host} is watched ${current.frequency}; its first check runs shortly.`,
      );
    throw new ApiProblem(
      "monitor-limit-reached",
      `This address already watches ${this.deps.freeSites()} sites, the free plan's limit: stop one (the unsubscribe link in any of its e-mails), then follow this link again.`,
    );
  }

  /** Follows an unsubscribe link: the monitor stops, its history stays readable. Repeating it changes nothing. */
  async unsubscribe({ token }: MonitorLink): Promise<MonitorLinkResult> {
    const monitor = await this.fromLink("unsubscribe", token);
    if (!monitor) throw invalidLink();
    const at = this.deps.now().toISOString();
    const stopped = (await stopMonitor(this.deps.db(), monitor.id, at, "unsubscribed")) ?? monitor;
    return this.#linkResult(
      stopped,
      "stopped",
      `${stopped.host} is no longer checked and you get no more e-mail about it.`,
    );
  }
}

const invalidLink = () =>
  new ApiProblem(
    "monitor-link-invalid",
    "This link has expired, was altered, or its monitor was removed. Ask to watch the site again for a fresh link.",
  );
