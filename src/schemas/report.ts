import { z } from "zod";
import { TimestampSchema } from "./common.ts";

/**
 * `fail` is the site's fault, with the evidence; `error` means the scanner could not reach a verdict for a reason that
 * is not the site's (its own budget ran out, a bug) and never counts as `fail`; `blocked` means the site's bot
 * protection kept the scanner from judging (a challenge page, a 403 or 429 a browser does not get, a 429 without
 * Retry-After, blocking that grew during the scan): never read as "missing", never counted (from suite 2026.11.3).
 */
export const CheckStatusSchema = z.enum(["pass", "warn", "fail", "n/a", "error", "blocked"]);
export type CheckStatus = z.infer<typeof CheckStatusSchema>;

/** `info` checks are reported but never scored. */
export const SeveritySchema = z.enum(["critical", "high", "medium", "low", "info"]);
export type Severity = z.infer<typeof SeveritySchema>;

/** What kind of site a check is meant for; inferred from what a scan finds, or chosen by the caller. */
export const ProfileSchema = z.enum(["content", "docs", "api", "agent", "commerce"]);
export type Profile = z.infer<typeof ProfileSchema>;

export const CheckCategorySchema = z.enum([
  "reachability",
  "discovery",
  "content",
  "bot-policy",
  "capabilities",
  "api-hygiene",
  "commerce",
]);
export type CheckCategory = z.infer<typeof CheckCategorySchema>;

/** Stable check ids such as `http.home-200` or `wk.consistency`. */
export const CheckIdSchema = z.string().regex(/^[a-z0-9]+(?:[.-][a-z0-9]+)*$/);

const HeadersSchema = z.record(z.string(), z.string());

/** One request a check relied on, what came back, and what the check concluded from it. */
export const EvidenceSchema = z.strictObject({
  request: z.strictObject({
    method: z.enum(["GET", "HEAD", "POST"]),
    url: z.string(),
    /** Only the headers that shaped the answer (Accept, If-None-Match, a bot User-Agent, MCP headers). */
    headers: HeadersSchema,
  }),
  /** Null when no response arrived (refused, timed out, over a budget). */
  response: z
    .strictObject({
      status: z.int().min(100).max(599),
      /** The URL that answered, after redirects. */
      url: z.string(),
      redirects: z.array(z.string()),
      headers: HeadersSchema,
      /** The first characters of the body, at most 500. */
      excerpt: z.string().max(500),
    })
    .nullable(),
  /** Why no usable response arrived. */
  error: z.string().nullable(),
  /** The response came from this scan's cache: another check had already fetched it. */
  reused: z.boolean(),
  finding: z.string(),
});
export type Evidence = z.infer<typeof EvidenceSchema>;

/** The free part of a check's result: what it checked and a one-line verdict. */
export const FindingSchema = z.strictObject({
  id: CheckIdSchema,
  title: z.string(),
  category: CheckCategorySchema,
  severity: SeveritySchema,
  status: CheckStatusSchema,
  message: z.string(),
  /** How long the check ran, waits for documents other checks were fetching included (absent before suite 2026.11.2). */
  duration_ms: z.int().min(0).optional(),
  /** Network requests this check sent itself, redirect hops included (absent before suite 2026.11.2). */
  requests: z.int().min(0).optional(),
  /** Responses it took from the scan's cache instead, because another check had fetched them (absent before 2026.11.2). */
  reused: z.int().min(0).optional(),
});
export type Finding = z.infer<typeof FindingSchema>;

/** The requirement keyword of the clause a finding rests on (RFC 2119); a HINT is advice with no keyword. */
export const ClauseKeywordSchema = z.enum(["MUST", "SHOULD", "MAY", "HINT"]);
export type ClauseKeyword = z.infer<typeof ClauseKeywordSchema>;

/** A requirement of a specification the site does not meet, as the check judged it: MUST fails, SHOULD warns, MAY and HINT inform. */
export const ClauseSchema = z.strictObject({
  keyword: ClauseKeywordSchema,
  /** Where the requirement is written, e.g. `RFC 9727 §2` or `llmstxt.org`. */
  source: z.string(),
  /** What the site does that the clause is about. */
  problem: z.string(),
});
export type Clause = z.infer<typeof ClauseSchema>;

/** The locked part: the evidence trail and how to fix it. */
export const CheckDetailSchema = z.strictObject({
  id: CheckIdSchema,
  evidence: z.array(EvidenceSchema),
  remediation: z.string(),
  /** A copy-paste prompt for a coding agent. */
  prompt: z.string(),
  spec_urls: z.array(z.url()),
  /** The clauses behind the verdict, each with its keyword (absent before suite 2026.11.2). */
  clauses: z.array(ClauseSchema).default([]),
});
export type CheckDetail = z.infer<typeof CheckDetailSchema>;

/** Counts over scored checks (informational checks are left out). */
const TallySchema = {
  pass: z.int().min(0),
  fail: z.int().min(0),
  warn: z.int().min(0),
  na: z.int().min(0),
  error: z.int().min(0),
  /** Checks the site's bot protection kept from a verdict (0 before suite 2026.11.3). */
  blocked: z.int().min(0).default(0),
};

export const ScoreSchema = z.strictObject({
  /** round(100 × pass / (pass + fail)); null when nothing could be scored, or the report is incomplete. */
  percent: z.int().min(0).max(100).nullable(),
  ...TallySchema,
});
export type Score = z.infer<typeof ScoreSchema>;

export const CategoryResultSchema = z.strictObject({
  id: CheckCategorySchema,
  title: z.string(),
  ...TallySchema,
  percent: z.int().min(0).max(100).nullable(),
});
export type CategoryResult = z.infer<typeof CategoryResultSchema>;

export const LevelRequirementSchema = z.strictObject({
  check: CheckIdSchema,
  title: z.string(),
  message: z.string(),
});

export const LevelSchema = z.strictObject({
  value: z.int().min(0).max(5),
  name: z.string(),
  next: z
    .strictObject({
      value: z.int().min(1).max(5),
      name: z.string(),
      requirements: z.array(LevelRequirementSchema),
    })
    .nullable(),
});
export type Level = z.infer<typeof LevelSchema>;

/** One way the site's bot protection answered the scanner, with what a browser got where it was asked. */
export const BlockingSignalSchema = z.strictObject({
  /**
   * - challenge: a challenge or block page of a bot-protection service (any status, 200 included)
   * - user-agent: a 403 that a browser's User-Agent does not get
   * - rate-limit: a 429 without Retry-After, or with one that ends past the scan's time budget
   * - growing: blocking that began during the scan (a URL that answered at first is refused later)
   */
  kind: z.enum(["challenge", "user-agent", "rate-limit", "growing"]),
  /** The request that was blocked. */
  url: z.string(),
  /** What was sent, what came back, and what a browser got. */
  detail: z.string(),
});
export type BlockingSignal = z.infer<typeof BlockingSignalSchema>;

/** How much the site's bot protection kept the scanner from judging, and what to allow so a new scan can judge it. */
export const BlockedSummarySchema = z.strictObject({
  /** Checks whose status is `blocked`. */
  checks: z.int().min(1),
  signals: z.array(BlockingSignalSchema).min(1),
  /** What the site owner should allow (our User-Agent, the paths), in one sentence. */
  allow: z.string(),
});
export type BlockedSummary = z.infer<typeof BlockedSummarySchema>;

/** One page the scan rendered in Chromium (rendered checks, from suite 2026.11.4). */
export const RenderedPageSummarySchema = z.strictObject({
  /** homepage, the soft-404 probe (a path that cannot exist), or one deep page linked from the homepage. */
  role: z.enum(["home", "probe", "deep"]),
  url: z.string(),
  /** The main document's status; null when none arrived. */
  status: z.int().min(100).max(599).nullable(),
  duration_ms: z.int().min(0),
  /** Why the page did not load completely; null when it did. */
  error: z.string().nullable(),
});

/**
 * What rendering the site in a browser took, when the scan asked for it (`render: true`, `--render`): `rendered`, or
 * `unavailable` (no browser on this instance: the rendered checks are n/a and the static report stands), or `failed`
 * (the browser could not render: the rendered checks are `error`). Every request went through the scan's guard proxy.
 */
export const RenderSummarySchema = z.strictObject({
  status: z.enum(["rendered", "unavailable", "failed"]),
  /** One sentence: what was rendered, or why not. */
  note: z.string(),
  /** The browser's User-Agent; null when nothing was rendered. */
  user_agent: z.string().nullable(),
  pages: z.array(RenderedPageSummarySchema),
  /** Requests the pages sent (each counted once, media and fonts not fetched). */
  requests: z.int().min(0),
  /** Tunnels and plain requests the guard proxy opened for them. */
  connections: z.int().min(0),
  bytes: z.int().min(0),
  hosts: z.int().min(0),
  /** Requests the guard refused: private addresses, other ports, the browser's own services, the budget. */
  refused: z.int().min(0),
  duration_ms: z.int().min(0),
});
export type RenderSummary = z.infer<typeof RenderSummarySchema>;

export const ReadinessSummaryShape = {
  /** The frozen rubric the result was computed with, e.g. `2026.11.0`. */
  suite_version: z.string().regex(/^\d{4}\.\d{1,2}\.\d+$/),
  target: z.strictObject({ input: z.string(), origin: z.url() }),
  checked_at: TimestampSchema,
  duration_ms: z.int().min(0),
  /** Network requests the scan sent (redirect hops included), the rendering browser's included. */
  requests: z.int().min(0),
  profile: z.strictObject({
    inferred: z.array(ProfileSchema),
    applied: z.array(ProfileSchema),
    overridden: z.boolean(),
    /** Why each inferred profile was inferred: the evidence of need, e.g. "an OpenAPI description" (DESIGN §8). */
    reasons: z.partialRecord(ProfileSchema, z.string()).default({}),
  }),
  score: ScoreSchema,
  /**
   * More than a quarter of the applicable checks ended in `error`, or any check was `blocked`: the report says too
   * little to be trusted, so its `score.percent` is null (no healthy-looking number) and `npm run check -- --fail-under`
   * fails on it.
   */
  incomplete: z.boolean().default(false),
  /** Set when the site's bot protection kept the scanner from judging some checks; null otherwise (and before 2026.11.3). */
  blocked: BlockedSummarySchema.nullable().default(null),
  /** Set when the scan rendered pages in a browser, or was asked to (from 2026.11.4); null otherwise. */
  render: RenderSummarySchema.nullable().default(null),
  level: LevelSchema,
  categories: z.array(CategoryResultSchema),
  findings: z.array(FindingSchema),
};

/** What anyone may see: the summary without evidence or fixes. */
export const ReadinessSummarySchema = z.strictObject(ReadinessSummaryShape);
export type ReadinessSummary = z.infer<typeof ReadinessSummarySchema>;

/** A complete readiness check; the service hides `details` until the report is unlocked. */
export const ReadinessResultSchema = z.strictObject({
  ...ReadinessSummaryShape,
  details: z.array(CheckDetailSchema),
});
export type ReadinessResult = z.infer<typeof ReadinessResultSchema>;
