import type { CheckDefinition } from "../../api/checks/engine/check-types.ts";
import { COUNTERPARTS, WITHOUT_COUNTERPART } from "../../api/checks/engine/suite/counterparts.ts";
import { CATEGORY_TITLES, SUITE_VERSION } from "../../api/checks/engine/suite/registry.ts";
import { CheckCategorySchema, type CheckStatus, CheckStatusSchema } from "../../src/schemas/report.ts";
import { type SideBySideSite, sideBySideSection } from "./lighthouse-comparison.ts";

/** One corpus site as the page shows it: what it is, and the verdicts expected and got for each check. */
export interface CorpusOutcome {
  name: string;
  summary: string;
  profiles: readonly string[];
  verdicts: ReadonlyArray<{ id: string; expected: CheckStatus | undefined; got: CheckStatus }>;
  /** A rendered site with Lighthouse's audits of it: shown beside our rendered verdicts; null otherwise. */
  sideBySide: SideBySideSite | null;
}

const STATUSES = CheckStatusSchema.options;

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

/**
 * A specification's short name for the table: an RFC's number, else its host. Short on purpose: a table cell never
 * breaks a word, so a long path would widen the whole table past the page.
 */
function sourceName(url: string): string {
  const parsed = new URL(url);
  const rfc = /rfc(\d+)/i.exec(parsed.pathname);
  return rfc === null ? parsed.hostname.replace(/^www\./, "") : `RFC ${rfc[1]}`;
}

/** Each source as a link; a second source on the same host is numbered so the two stay apart. */
function sourceLinks(urls: readonly string[]): string {
  const seen = new Map<string, number>();
  return urls
    .map((url) => {
      const name = sourceName(url);
      const count = (seen.get(name) ?? 0) + 1;
      seen.set(name, count);
      return `[${count === 1 ? name : `${name} (${count})`}](${url})`;
    })
    .join(", ");
}

function checkTables(suite: readonly CheckDefinition[]): string[] {
  const lines: string[] = [];
  for (const category of CheckCategorySchema.options) {
    const checks = suite.filter((check) => check.category === category);
    if (checks.length === 0) continue;
    lines.push(`## ${CATEGORY_TITLES[category]} (\`${category}\`)`, "");
    // Five columns, as narrow as the page allows: a wide screen must show a check whole without scrolling.
    lines.push(
      "| Check | Requests | Passes when (and what it rests on) | Severity, spec | Profiles |",
      "|---|---|---|---|---|",
    );
    for (const check of checks) {
      const profiles = check.profiles === "all" ? "all" : check.profiles.join(", ");
      const sources = sourceLinks(check.specUrls);
      const passes = sources === "" ? check.passes : `${check.passes} (rests on ${sources})`;
      lines.push(
        `| \`${check.id}\`: ${cell(check.title)} | ${cell(check.requests)} | ${cell(passes)} | ${check.severity}, ${check.maturity} | ${profiles} |`,
      );
    }
    lines.push("");
  }
  return lines;
}

function counterpartTables(suite: readonly CheckDefinition[]): string[] {
  const lines = [
    "## Counterparts in other scanners",
    "",
    "Where a check answers the same question as a check of Cloudflare's isitagentready or an audit of Lighthouse's",
    "Agentic Browsing category, so a report of ours can be read next to theirs. Without rendering, WebMCP is read from",
    "the page's markup and its own scripts (`webmcp.tools`, `webmcp.valid`): a tool registered by code we cannot see",
    "(another origin, a computed call) is missed. A rendered scan (`render: true`) reads the tools as Lighthouse does,",
    "from the browser (`render.webmcp`, `render.webmcp-valid`), and answers the two audits that need a browser",
    "(`render.agent-tree`, `render.layout-shift`).",
    "",
    "| Check | Cloudflare isitagentready | Lighthouse |",
    "|---|---|---|",
  ];
  for (const check of suite) {
    const counterpart = COUNTERPARTS[check.id];
    if (counterpart === undefined) continue;
    const name = (ids: string | readonly string[] | undefined): string =>
      ids === undefined ? "–" : (typeof ids === "string" ? [ids] : ids).map((id) => `\`${id}\``).join(", ");
    lines.push(`| \`${check.id}\` | ${name(counterpart.cloudflare)} | ${name(counterpart.lighthouse)} |`);
  }
  if (WITHOUT_COUNTERPART.length > 0) {
    lines.push(
      "",
      "Their checks and audits that no check here answers, and why:",
      "",
      "| Scanner | Id | Why |",
      "|---|---|---|",
    );
    for (const entry of WITHOUT_COUNTERPART)
      lines.push(
        `| ${entry.scanner === "cloudflare" ? "Cloudflare" : "Lighthouse"} | \`${entry.id}\` | ${cell(entry.reason)} |`,
      );
  }
  lines.push("");
  return lines;
}

function corpusTables(outcomes: readonly CorpusOutcome[]): string[] {
  const lines = [
    "## The corpus that proves the verdicts",
    "",
    `Every check is run on ${outcomes.length} fixture sites built from real public files (a blog, an SPA, a docs site,`,
    "an API with OAuth, an MCP server, a shop, plausible-but-broken variants, sites on older spec generations, and a",
    "hostile one), each with the verdict a careful reader expects from every check. The test suite fails on any",
    "disagreement. The sites and the sources of their files are in `test/fixtures/sites/`.",
    "",
    "Per site, expected verdicts that the checker gave, out of those expected:",
    "",
    `| Site | What it is | Profiles | ${STATUSES.join(" | ")} | Disagreements |`,
    `|---|---|---|${STATUSES.map(() => "---").join("|")}|---|`,
  ];
  const matrix = new Map<string, number>();
  for (const outcome of outcomes) {
    const counts = STATUSES.map((status) => {
      const expected = outcome.verdicts.filter((verdict) => verdict.expected === status);
      const agreed = expected.filter((verdict) => verdict.got === status);
      return expected.length === 0 ? "–" : `${agreed.length}/${expected.length}`;
    });
    const disagreements = outcome.verdicts.filter((verdict) => verdict.expected !== verdict.got).length;
    for (const verdict of outcome.verdicts) {
      const key = `${verdict.expected ?? "none"}→${verdict.got}`;
      matrix.set(key, (matrix.get(key) ?? 0) + 1);
    }
    lines.push(
      `| \`${outcome.name}\` | ${cell(outcome.summary)} | ${outcome.profiles.join(", ") || "none"} | ${counts.join(" | ")} | ${disagreements} |`,
    );
  }
  lines.push("", "All sites together, expected (rows) against got (columns):", "");
  lines.push(`| expected \\ got | ${STATUSES.join(" | ")} |`, `|---|${STATUSES.map(() => "---").join("|")}|`);
  for (const expected of STATUSES)
    lines.push(`| ${expected} | ${STATUSES.map((got) => matrix.get(`${expected}→${got}`) ?? 0).join(" | ")} |`);
  lines.push("");
  return lines;
}

/**
 * The body of content/docs/checks/catalogue.md, from the suite itself (ids, titles, what each fetches and passes on,
 * severities, profiles), the counterparts table, and the corpus run's confusion table.
 */
export function renderCatalogue(suite: readonly CheckDefinition[], outcomes: readonly CorpusOutcome[]): string {
  const lines = [
    "<!-- Generated by `npm run catalogue` from the check suite and the corpus; edit the checks, not this page. -->",
    "",
    `This is suite **${SUITE_VERSION}**: ${suite.length} checks. The suite is versioned and frozen: a check's id and pass`,
    "criteria do not change within a suite version, so two reports of the same suite version are comparable. Every",
    "report names its suite version. When a specification moves (the MCP server card and the Agent Skills index both",
    'changed location in 2026), the checker probes every generation and reports an older one as `warn` ("outdated',
    'shape"), never as missing; a location that fails never stops the probe of the others.',
    "",
    "A check fails when the site breaks a MUST of the specification it rests on, warns on a missed SHOULD, and only",
    "notes a MAY or a hint; each finding cites the clause. What the site does wrong is `fail` (an oversize body, a",
    "decompression bomb, a redirect loop or to a private address, text that is not UTF-8, a page that never finishes);",
    "`error` is kept for the scanner's own trouble (its time or request budget), and `blocked` for the site's bot",
    "protection answering instead of the site (a challenge page, a `403` a browser does not get, a `429` without a",
    "usable `Retry-After`, blocking that grows during the scan): never read as missing",
    "([When a check is blocked](/docs/checks/blocked)).",
    "",
    "Severity: **critical** (an agent cannot proceed), **high**, **medium**, **low**, **info** (reported, never",
    "scored). Profiles: `all`, or the list of profiles the check applies to ([Profiles](/docs/checks#profiles)).",
    "Spec: how settled the specification is: **standard** (an RFC, a W3C or WHATWG standard, a protocol's released",
    "version), **draft** (an Internet-Draft, a community-group draft, a community specification still moving) or",
    "**proposal** (a design its own authors mark as a proposal). A proposal never fails a site: what breaks it is a",
    "`warn` that says so.",
    "",
    ...checkTables(suite),
    ...counterpartTables(suite),
    ...corpusTables(outcomes),
    ...sideBySideSection(
      outcomes.flatMap((outcome) => (outcome.sideBySide === null ? [] : [outcome.sideBySide])),
      suite,
    ),
    "## Our own site",
    "",
    "AgentReady runs this suite against itself in its tests and must score full marks on every check that applies",
    "to it, and its pages, rendered through the same guard, pass every rendered check that applies.",
    "",
  ];
  return lines.join("\n");
}

/** Keeps the page's frontmatter (its version on record) and replaces the body. */
export function replaceBody(page: string, body: string): string {
  const match = /^---\n[\s\S]*?\n---\n/.exec(page);
  if (match === null) throw new Error("the catalogue page has no frontmatter");
  return `${match[0]}${body}`;
}
