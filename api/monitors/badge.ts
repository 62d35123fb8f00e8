import { escapeXml } from "../../src/lib/xml-text.ts";
import type { Sql } from "../db/sql.ts";
import { findBadgeMonitor } from "./sql/monitors.ts";
import { listRuns } from "./sql/runs.ts";

/** What a badge says: the latest score and level of a monitored domain, or that it is not (yet) known. */
export type BadgeFacts =
  | { kind: "scored"; score: number | null; level: number; levelName: string }
  | { kind: "failed" }
  | { kind: "pending" }
  | { kind: "unknown" };

/**
 * Fill colours with white 11 px text at a contrast of at least 4.5:1 (WCAG 2.2 §1.4.3), so the value
 * stays readable at the badge's small size; the score picks the colour, as shields.io badges do.
 */
const COLOURS = { good: "#1a7f37", fair: "#8a5a00", poor: "#c4212d", neutral: "#5e6670", label: "#3a4048" } as const;

function colourOf(facts: BadgeFacts): string {
  if (facts.kind !== "scored" || facts.score === null) return COLOURS.neutral;
  if (facts.score >= 80) return COLOURS.good;
  if (facts.score >= 50) return COLOURS.fair;
  return COLOURS.poor;
}

function valueText(facts: BadgeFacts): string {
  switch (facts.kind) {
    case "scored":
      return `${facts.score === null ? "incomplete" : `${facts.score}%`} · level ${facts.level}`;
    case "failed":
      return "unreachable";
    case "pending":
      return "not checked yet";
    case "unknown":
      return "not monitored";
  }
}

/** The accessible name: what a screen reader says and a tooltip shows. */
export function badgeTitle(domain: string, facts: BadgeFacts): string {
  switch (facts.kind) {
    case "scored":
      return `Agent readiness of ${domain}: ${facts.score === null ? "incomplete report" : `score ${facts.score}%`}, level ${facts.level} (${facts.levelName})`;
    case "failed":
      return `Agent readiness of ${domain}: the latest check could not reach the site`;
    case "pending":
      return `Agent readiness of ${domain}: monitored, not checked yet`;
    case "unknown":
      return `Agent readiness of ${domain}: not monitored`;
  }
}

// Advance widths of Verdana at 11 px, in pixels, for the characters a badge can hold; others count as 7.
const NARROW = new Set([..." .,:;|!'ilIjft()[]"]);
const WIDE = new Set([..."mwMW%@"]);
function textWidth(text: string): number {
  let width = 0;
  for (const char of text) width += NARROW.has(char) ? 3.9 : WIDE.has(char) ? 10.5 : /[A-Z0-9]/.test(char) ? 7.5 : 6.8;
  return Math.ceil(width);
}

const LABEL = "agent ready";

/** A flat shields-style badge, 20 px high, with `<title>` and `role="img"` so it has an accessible name. */
export function renderBadge(domain: string, facts: BadgeFacts): string {
  const value = valueText(facts);
  const title = escapeXml(badgeTitle(domain, facts));
  const left = textWidth(LABEL) + 12;
  const right = textWidth(value) + 12;
  const width = left + right;
  const text = (x: number, content: string) =>
    `<text aria-hidden="true" x="${x}" y="15" fill="#010101" fill-opacity=".3">${content}</text><text x="${x}" y="14">${content}</text>`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" viewBox="0 0 ${width} 20" role="img" aria-label="${title}">`,
    `<title>${title}</title>`,
    '<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>',
    `<clipPath id="r"><rect width="${width}" height="20" rx="3" fill="#fff"/></clipPath>`,
    `<g clip-path="url(#r)"><rect width="${left}" height="20" fill="${COLOURS.label}"/><rect x="${left}" width="${right}" height="20" fill="${colourOf(facts)}"/><rect width="${width}" height="20" fill="url(#s)"/></g>`,
    '<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" text-rendering="geometricPrecision" font-size="11">',
    text(left / 2, LABEL),
    text(left + right / 2, escapeXml(value)),
    "</g></svg>",
  ].join("");
}

/** A badge as served: the SVG, and 404 for a domain no active monitor watches. */
export interface Badge {
  status: 200 | 404;
  svg: string;
}

/** `example.com`, `Example.COM.`, `bücher.example` and `127.0.0.1:4321` as the host a monitor stores, or `null`. */
function hostOf(domain: string): string | null {
  try {
    const url = new URL(`https://${domain}`);
    return url.pathname === "/" && !url.search && !url.username ? url.host.replace(/\.$/, "") : null;
  } catch {
    return null;
  }
}

/**
 * What the badge of `host` says: the latest run of its badge monitor (`findBadgeMonitor`), the
 * earliest confirmed that watches `https://host` with the profile inferred, so a stranger who
 * watches the same host later, over plain http or with a profile of their own, never changes it. A
 * local target (CHECKS_ALLOWED_TARGETS, never in production) may be watched over plain http.
 */
async function badgeFacts(db: Sql, host: string, isLocalHost: (host: string) => boolean): Promise<BadgeFacts> {
  const monitor = await findBadgeMonitor(db, host, isLocalHost(host) ? null : `https://${host}`);
  if (!monitor) return { kind: "unknown" };
  const [latest] = await listRuns(db, monitor.id, 1);
  if (latest?.outcome === "failed") return { kind: "failed" };
  if (latest?.level != null)
    return { kind: "scored", score: latest.score, level: latest.level, levelName: latest.level_name ?? "" };
  return { kind: "pending" };
}

/** The badge of a domain; any domain, monitored or not, gets an SVG (a neutral one with 404). */
export async function monitorBadge(db: Sql, domain: string, isLocalHost: (host: string) => boolean): Promise<Badge> {
  const host = hostOf(domain);
  const facts: BadgeFacts = host === null ? { kind: "unknown" } : await badgeFacts(db, host, isLocalHost);
  return { status: facts.kind === "unknown" ? 404 : 200, svg: renderBadge(host ?? domain.slice(0, 100), facts) };
}
