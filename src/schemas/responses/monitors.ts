import { z } from "zod";
import { TimestampSchema } from "../common.ts";
import { CheckIdSchema, CheckStatusSchema, ProfileSchema } from "../report.ts";
import { MonitorFrequencySchema } from "../requests/monitors.ts";

/** A monitor's public id: the credential to its page and history, as a report's id is to the report. */
export const MONITOR_ID_PATTERN = "^mon_[A-Za-z0-9_-]{43}$";
export const MonitorIdSchema = z.string().regex(new RegExp(MONITOR_ID_PATTERN));

/** One scheduled re-check, kept for good. */
export const MonitorRunSchema = z.strictObject({
  id: z.string(),
  /** The due time this run answered; each due time is run exactly once, whichever instance ran it. */
  scheduled_for: TimestampSchema,
  started_at: TimestampSchema,
  finished_at: TimestampSchema,
  /** `checked`: the site answered and was judged; `failed`: it could not be checked (unreachable, refused), see `reason`. */
  outcome: z.enum(["checked", "failed"]),
  reason: z.string().nullable(),
  /** 0–100; `null` for a failed run or an incomplete report. */
  score: z.int().min(0).max(100).nullable(),
  level: z.int().min(0).max(5).nullable(),
  level_name: z.string().nullable(),
  incomplete: z.boolean(),
  suite_version: z.string().nullable(),
  /** The stored report of this run (the free summary; unlockable like any report). */
  report: z.string().nullable(),
  /** Each check's status, by check id. */
  checks: z.record(CheckIdSchema, CheckStatusSchema),
  /** Whether this run sent an alert (a regression against the run before it). */
  alerted: z.boolean(),
});
export type MonitorRun = z.infer<typeof MonitorRunSchema>;

/** How to show the monitor's badge on a page. */
export const BadgeEmbedSchema = z.strictObject({
  svg: z.string(),
  markdown: z.string(),
  html: z.string(),
});

/** The monitor itself, without its history. */
export const MonitorSummaryShape = {
  id: MonitorIdSchema,
  /** The monitor page for people (the score over time); the id in it is the credential. */
  url: z.string(),
  domain: z.string(),
  origin: z.string(),
  frequency: MonitorFrequencySchema,
  /** `null`: inferred on every run. */
  profile: z.array(ProfileSchema).nullable(),
  /** `active`: scheduled; `stopped`: unsubscribed, its history kept. */
  state: z.enum(["active", "stopped"]),
  /** Alerts go by e-mail to a confirmed address; an agent's monitor has none (read the history). */
  alerts: z.enum(["email", "none"]),
  created_at: TimestampSchema,
  next_run_at: TimestampSchema.nullable(),
  latest: MonitorRunSchema.nullable(),
  badge: BadgeEmbedSchema,
};

/** `GET /api/v1/monitors/{id}`: the monitor and its history, newest first, a page at a time. */
export const MonitorSchema = z.strictObject({
  ...MonitorSummaryShape,
  history: z.strictObject({
    data: z.array(MonitorRunSchema),
    /** The next (older) page, or `null` on the last one. */
    next: z.string().nullable(),
  }),
});
export type MonitorView = z.infer<typeof MonitorSchema>;

/** `201`/`200` from `POST /api/v1/agents/monitors` (200 when this agent already watched the site). */
export const AgentMonitorSchema = z.strictObject(MonitorSummaryShape);
export type AgentMonitor = z.infer<typeof AgentMonitorSchema>;

/** `GET /api/v1/agents/monitors`: every monitor of the token's registration. */
export const AgentMonitorListSchema = z.strictObject({ data: z.array(AgentMonitorSchema) });

/** `202` from `POST /api/v1/monitors`: the same for every address and domain, so it reveals nothing. */
export const MonitorRequestedSchema = z.strictObject({
  status: z.literal("received"),
  detail: z.string(),
});

/** `200` from following an e-mailed link with its `POST`. */
export const MonitorLinkResultSchema = z.strictObject({
  state: z.enum(["active", "stopped"]),
  domain: z.string(),
  /** The monitor page; its id is the credential, so it is shown only to whoever holds the e-mailed link. */
  url: z.string(),
  detail: z.string(),
});
export type MonitorLinkResult = z.infer<typeof MonitorLinkResultSchema>;
