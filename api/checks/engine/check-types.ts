import type { CheckCategory, CheckStatus, Clause, Profile, Severity } from "../../../src/schemas/report.ts";
import type { AgentDnsResolver } from "./dns/agent-dns.ts";
import type { DocumentContext } from "./documents/document.ts";
import type { RenderOutcome } from "./render/rendered-site.ts";
import type { SiteFacts } from "./site-facts.ts";

export interface CheckOutcome {
  status: CheckStatus;
  message: string;
  /** The specification clauses the verdict rests on (see verdict.ts). */
  clauses?: Clause[];
}

/** What a check sees while it runs: the target, its own evidence trail, the soft-404 fingerprints, and more. */
export interface CheckContext extends DocumentContext {
  now: Date;
  /** Random per scan, so probe paths such as `/__nonexistent-<token>` cannot be cached or special-cased. */
  scanToken: string;
  /** What the scan learnt before the checks ran (found documents, inferred profiles). */
  facts: SiteFacts;
  /** SVCB lookups for DNS-AID (dns.aid); the only DNS a check does besides the fetcher's address lookups. */
  agentDns: AgentDnsResolver;
  /** The pages rendered in a browser, when the scan asked for it (`render: true`); null otherwise. */
  rendering: Promise<RenderOutcome> | null;
}

/**
 * How settled the specification a check rests on is (DESIGN §8): `standard` (an RFC, a W3C or WHATWG standard, or a
 * protocol's released version), `draft` (an Internet-Draft, a community-group draft, a community specification still
 * moving), `proposal` (a design its own authors mark as a proposal). A proposal never fails a site.
 */
export type Maturity = "standard" | "draft" | "proposal";

export interface CheckDefinition {
  /** Stable across suite versions; never reused for a different rule. */
  id: string;
  title: string;
  /** What the check requests from the site, in a few words (the catalogue page's "Requests" column). */
  requests: string;
  /** What passes, and what warns or fails and why, in a sentence (the catalogue page's "Passes when" column). */
  passes: string;
  category: CheckCategory;
  severity: Severity;
  maturity: Maturity;
  /** The profiles a check is meant for; anything else makes it `n/a`. */
  profiles: readonly Profile[] | "all";
  remediation: string;
  /** A copy-paste instruction for a coding agent. */
  prompt: string;
  specUrls: readonly string[];
  /** It samples link targets: the budget plan keeps it one sample before samples are shared out (budget/request-budget.ts). */
  samples?: true;
  /** It judges pages rendered in a browser: `n/a` unless the scan renders (`render: true`, `--render`). */
  rendered?: true;
  run(context: CheckContext): Promise<CheckOutcome>;
}

export function defineCheck(definition: CheckDefinition): CheckDefinition {
  return definition;
}

export const pass = (message: string): CheckOutcome => ({ status: "pass", message });
export const warn = (message: string): CheckOutcome => ({ status: "warn", message });
export const fail = (message: string): CheckOutcome => ({ status: "fail", message });
export const notApplicable = (message: string): CheckOutcome => ({ status: "n/a", message });
export const scanError = (message: string): CheckOutcome => ({ status: "error", message });
export const blocked = (message: string): CheckOutcome => ({ status: "blocked", message });

/**
 * A proposal is not yet the specification, so breaking it is reported as `warn`, never `fail` (DESIGN §8); the
 * message says why, so the verdict is not read as a lenient one.
 */
export function capByMaturity(maturity: Maturity, outcome: CheckOutcome): CheckOutcome {
  if (maturity !== "proposal" || outcome.status !== "fail") return outcome;
  return { ...outcome, status: "warn", message: `${outcome.message} (a proposal, so at most a warning)` };
}

/** What a check found, by weight: a problem fails it, a caution warns, a note only informs. */
export interface Found {
  problems?: readonly string[];
  cautions?: readonly string[];
  notes?: readonly string[];
}

/** Cautions named after the problems of a `fail`, and notes after both: the parts of a composed message. */
export const CAUTIONS_LABEL = "also: ";
export const NOTES_LABEL = "note: ";

/**
 * One outcome from everything a check found: the heaviest finding decides the status, and the message names every
 * kind of finding, so a `fail` never hides the warnings and a `warn` never hides the notes (each kind lists its first
 * few, then a count). `passed` says what holds when nothing is wrong; it must not claim what a note contradicts.
 */
export function judge(found: Found, passed: string): CheckOutcome {
  const problems = found.problems ?? [];
  const cautions = found.cautions ?? [];
  const notes = found.notes ?? [];
  const parts: string[] = [];
  if (problems.length > 0) parts.push(listProblems(problems));
  if (cautions.length > 0) parts.push(`${problems.length > 0 ? CAUTIONS_LABEL : ""}${listProblems(cautions)}`);
  if (problems.length === 0 && cautions.length === 0) parts.push(passed);
  if (notes.length > 0) parts.push(`${NOTES_LABEL}${listProblems(notes, 2)}`);
  const message = parts.filter((part) => part !== "").join("; ");
  const status = problems.length > 0 ? "fail" : cautions.length > 0 ? "warn" : "pass";
  return { status, message };
}

/** Joins problems into one line: the first few, then a count. */
export function listProblems(problems: readonly string[], limit = 3): string {
  const shown = problems.slice(0, limit).join("; ");
  return problems.length > limit ? `${shown}; and ${problems.length - limit} more` : shown;
}

/** HTTPS, or plain HTTP on the allow-listed local origin being checked (fixtures and local work have no TLS). */
export function isSecureOrLocal(context: CheckContext, url: URL): boolean {
  return url.protocol === "https:" || (context.target.allowListed && url.origin === context.target.origin);
}
