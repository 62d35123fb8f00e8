import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import { boundedMessage, inertLine } from "../../../src/lib/site-text.ts";
import {
  type CheckDetail,
  type Finding,
  type Profile,
  type ReadinessResult,
  ReadinessResultSchema,
} from "../../../src/schemas/report.ts";
import { summarizeBlocking } from "./blocked-summary.ts";
import type { RequestBudget } from "./budget/request-budget.ts";
import { SampleGate } from "./budget/sample-gate.ts";
import {
  blocked,
  type CheckContext,
  type CheckDefinition,
  type CheckOutcome,
  capByMaturity,
  fail,
  notApplicable,
  scanError,
} from "./check-types.ts";
import { type AgentDnsResolver, dnsOverHttpsResolver } from "./dns/agent-dns.ts";
import type { DocumentContext } from "./documents/document.ts";
import { fallbackFingerprints, probeUnknownPaths, unknownPageUrl } from "./documents/probes.ts";
import { loadHome } from "./documents/site.ts";
import { EvidenceTrail } from "./evidence.ts";
import type { HostLookup } from "./fetch/address-guard.ts";
import { ScanFetcher } from "./fetch/fetcher.ts";
import { ignoreScanFailure, isSiteFault, ScanFetchError } from "./fetch/scan-fetch-error.ts";
import { parseTarget } from "./fetch/target.ts";
import { computeLevel } from "./levels.ts";
import type { RenderRequest } from "./render/render-session.ts";
import { summarizeRendering } from "./render/render-summary.ts";
import type { RenderOutcome } from "./render/rendered-site.ts";
import { categoryResults, isApplicable, isIncomplete, scoreResults } from "./scoring.ts";
import type { CheckerSettings } from "./settings.ts";
import { gatherSignals, inferProfiles, profileReasons, type SiteFacts } from "./site-facts.ts";
import { CHECK_SUITE, SUITE_VERSION } from "./suite/registry.ts";

export type CheckProgress =
  | { kind: "profile"; inferred: readonly Profile[]; applied: readonly Profile[] }
  | { kind: "check"; finding: Finding; done: number; total: number };

export interface RunReadinessCheckOptions {
  /** A hostname (checked over https) or an http(s) URL whose origin is checked. */
  target: string;
  /** Overrides the inferred profiles. */
  profile?: readonly Profile[];
  settings: CheckerSettings;
  onProgress?: (event: CheckProgress) => void;
  now?: () => Date;
  /** DNS for the SSRF guard; tests inject one to make a name resolve to a private address. */
  lookup?: HostLookup;
  /** SVCB lookups for dns.aid; tests inject a fake so that no scan queries real DNS. */
  agentDns?: AgentDnsResolver;
  signal?: AbortSignal;
  /** Called once the target is accepted, before any request: a caller charges its quota here, not for refused targets. */
  admit?: () => Promise<void>;
  /** Renders the site's pages in a browser for the rendered checks (`render: true`); without it they are n/a. */
  renderer?: { render(request: RenderRequest): Promise<RenderOutcome> };
}

const NOT_RENDERED = 'this check needs pages rendered in a browser: run the check with --render (API: "render": true)';

interface CheckRun {
  definition: CheckDefinition;
  outcome: CheckOutcome;
  trail: EvidenceTrail | null;
  durationMs: number;
}

/**
 * The soft-404 probes run first (with the homepage, in parallel), so every later check can tell a real document from
 * the site's fallback page.
 */
async function soft404Fingerprints(context: DocumentContext, scanToken: string): Promise<ReadonlySet<string>> {
  const [, probes] = await Promise.all([
    loadHome(context).catch(ignoreScanFailure),
    probeUnknownPaths(context, scanToken).catch(ignoreScanFailure),
  ]);
  return probes === null ? new Set() : fallbackFingerprints(probes);
}

/**
 * A request that got no answer ends the check: as `fail` when the site is to blame (it hung, broke the connection,
 * pointed at an address no public client can reach), as `blocked` when its bot protection refused the scanner, as
 * `error` when the scanner's own limits stopped it.
 */
async function runOne(definition: CheckDefinition, context: CheckContext): Promise<CheckOutcome> {
  try {
    return await definition.run(context);
  } catch (error) {
    if (error instanceof ScanFetchError && error.kind === "blocked") return blocked(error.message);
    if (error instanceof ScanFetchError) return isSiteFault(error) ? fail(error.message) : scanError(error.message);
    return scanError(`the checker failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * Checks one site: refuses non-public targets (throws TargetNotAllowedError before any request), learns what the site
 * publishes, infers its profiles, runs every applicable check of the suite with one shared, bounded fetcher, and
 * scores the result. What the site does wrong is `fail`; what stopped the scanner is `error`, never `fail`.
 */
export async function runReadinessCheck(options: RunReadinessCheckOptions): Promise<ReadinessResult> {
  const started = performance.now();
  const checkedAt = (options.now ?? (() => new Date()))();
  const { settings } = options;
  const lookup = options.lookup === undefined ? {} : { lookup: options.lookup };
  // The time budget starts before the target's own name lookup: nothing of a scan outlives it.
  const budget = AbortSignal.timeout(settings.limits.scanBudgetMs);
  const deadline = options.signal === undefined ? budget : AbortSignal.any([budget, options.signal]);
  const target = await parseTarget(options.target, settings, { ...lookup, signal: deadline });
  await options.admit?.();
  const fetcher = new ScanFetcher({ settings, origin: target.origin, ...lookup, deadline });
  // Checks' held-back samples go once every check still running waits for samples too (budget/sample-gate.ts).
  const gate = new SampleGate(fetcher.deadline);
  const newTrail = (forCheck = false): EvidenceTrail =>
    new EvidenceTrail(fetcher, settings.userAgent, target.origin, forCheck ? gate : null);
  const scanToken = randomBytes(6).toString("hex");
  // The browser renders beside the static scan, through its own guard proxy and budget (render/render-session.ts).
  const rendering =
    options.renderer?.render({
      origin: target.origin,
      probeUrl: unknownPageUrl({ target }, scanToken),
      settings,
      // The fetcher's own lookups (c-ares, never libuv's thread pool), under the same per-scan cap.
      lookup: fetcher.lookup,
      signal: deadline,
    }) ?? null;
  let runs: CheckRun[];
  let facts: SiteFacts;
  try {
    const fallbacks = await soft404Fingerprints({ target, trail: newTrail(), fallbacks: new Set() }, scanToken);
    const signals = await gatherSignals({ target, trail: newTrail(), fallbacks });
    const inferred = inferProfiles(signals);
    const applied = options.profile === undefined ? inferred : [...options.profile];
    facts = { signals, reasons: profileReasons(signals), inferred, applied, overridden: options.profile !== undefined };
    options.onProgress?.({ kind: "profile", inferred, applied });
    fetcher.budget.planSamples(
      CHECK_SUITE.filter((check) => check.samples === true && isApplicable(check, applied)).length,
    );
    const agentDns = options.agentDns ?? dnsOverHttpsResolver();
    const context = { target, fallbacks, now: checkedAt, scanToken, facts, agentDns, rendering };
    let done = 0;
    runs = await Promise.all(
      CHECK_SUITE.map(async (definition): Promise<CheckRun> => {
        const scan = { gate, budget: fetcher.budget, rendered: rendering !== null };
        const run = await runApplicable(definition, applied, scan, () => ({ ...context, trail: newTrail(true) }));
        done += 1;
        options.onProgress?.({ kind: "check", finding: toFinding(run), done, total: CHECK_SUITE.length });
        return run;
      }),
    );
  } finally {
    await fetcher.close();
  }
  const rendered = rendering === null ? null : summarizeRendering(await rendering);
  const scored = runs.map((run) => ({ definition: run.definition, status: run.outcome.status }));
  const findings = runs.map(toFinding);
  const incomplete = isIncomplete(scored);
  const score = scoreResults(scored);
  return ReadinessResultSchema.parse({
    suite_version: SUITE_VERSION,
    target: { input: target.input, origin: target.origin },
    checked_at: checkedAt.toISOString(),
    duration_ms: Math.round(performance.now() - started),
    requests: fetcher.requestCount + (rendered?.requests ?? 0),
    profile: {
      inferred: facts.inferred,
      applied: facts.applied,
      overridden: facts.overridden,
      reasons: Object.fromEntries(
        Object.entries(facts.reasons).map(([profile, reason]) => [profile, inertLine(reason)]),
      ),
    },
    score: incomplete ? { ...score, percent: null } : score,
    incomplete,
    blocked: summarizeBlocking(findings, fetcher.watch.signals, settings),
    render: rendered,
    level: computeLevel(runs.map((run) => ({ id: run.definition.id, title: run.definition.title, ...run.outcome }))),
    categories: categoryResults(scored),
    findings,
    details: runs.map(toDetail),
  } satisfies ReadinessResult);
}

/** A check that does not apply to the site's profiles is `n/a` without sending anything. */
async function runApplicable(
  definition: CheckDefinition,
  applied: readonly Profile[],
  scan: { gate: SampleGate; budget: RequestBudget; rendered: boolean },
  contextFor: () => CheckContext,
): Promise<CheckRun> {
  if (definition.rendered === true && !scan.rendered)
    return { definition, trail: null, durationMs: 0, outcome: notApplicable(NOT_RENDERED) };
  if (!isApplicable(definition, applied)) {
    const wanted = definition.profiles === "all" ? "all" : definition.profiles.join(", ");
    return {
      definition,
      trail: null,
      durationMs: 0,
      outcome: notApplicable(`applies to ${wanted} sites; this one was checked as ${applied.join(", ") || "none"}`),
    };
  }
  const context = contextFor();
  const started = performance.now();
  // A rendered check waits on the browser, not on requests: as a member it would hold every sample back until then.
  const member = definition.rendered === true ? null : context.trail;
  if (member !== null) scan.gate.enter(member);
  let outcome: CheckOutcome;
  try {
    outcome = capByMaturity(definition.maturity, await runOne(definition, context));
  } finally {
    // A check that never sampled hands back the request kept for its first sample, before held samples are released.
    if (definition.samples === true && !context.trail.sampled) scan.budget.releaseSample();
    if (member !== null) scan.gate.leave(member);
  }
  // A pass or n/a that rests on less than the check asked for, because bot protection refused part of it, says
  // nothing about the site: it is blocked too. A fail or warn stands, proven by what did come back.
  const refused = context.trail.blocked;
  if (refused !== null && (outcome.status === "pass" || outcome.status === "n/a")) outcome = blocked(refused.message);
  return { definition, trail: context.trail, outcome, durationMs: Math.round(performance.now() - started) };
}

function toFinding(run: CheckRun): Finding {
  const { definition, outcome } = run;
  return {
    id: definition.id,
    title: definition.title,
    category: definition.category,
    severity: definition.severity,
    status: outcome.status,
    message: boundedMessage(outcome.message),
    duration_ms: run.durationMs,
    ...(run.trail?.spending ?? { requests: 0, reused: 0 }),
  };
}

/** Clauses a finding keeps, and the characters of each: a hostile document can break a clause on every line. */
const MAX_CLAUSES = 20;
const CLAUSE_LIMIT = 500;

function toDetail(run: CheckRun): CheckDetail {
  const { definition } = run;
  return {
    id: definition.id,
    evidence: run.trail?.entries ?? [],
    remediation: definition.remediation,
    prompt: definition.prompt,
    spec_urls: [...definition.specUrls],
    clauses: (run.outcome.clauses ?? [])
      .slice(0, MAX_CLAUSES)
      .map((clause) => ({ ...clause, problem: boundedMessage(clause.problem, CLAUSE_LIMIT) })),
  };
}
