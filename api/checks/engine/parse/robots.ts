import { quoteSiteText } from "../../../../src/lib/site-text.ts";

/** A robots.txt read per RFC 9309, plus the non-group lines agents care about. */
export interface RobotsRule {
  allow: boolean;
  path: string;
}

export interface RobotsGroup {
  /** Product tokens, lower case; `*` for the wildcard group. */
  agents: string[];
  rules: RobotsRule[];
  /** `Content-Signal:` values inside this group (contentsignals.org). */
  contentSignals: string[];
  /** `Content-Usage:` rule values inside this group, an optional path then the preferences (draft-ietf-aipref-attach §3). */
  contentUsage: string[];
}

export interface Robots {
  groups: RobotsGroup[];
  sitemaps: string[];
  /** `Content-Signal:` lines that appear before any group. */
  orphanContentSignals: string[];
  /** `Content-Usage:` lines before any group, which no crawler applies (they are rules of a group). */
  orphanContentUsage: string[];
  /** Lines a crawler skips, each with its 1-based number, its text (as the site wrote it, cut) and why (RFC 9309 §2.2). */
  badLines: RobotsBadLine[];
}

export interface RobotsBadLine {
  line: number;
  text: string;
  reason: string;
}

const KNOWN_KEYS = ["user-agent", "allow", "disallow", "sitemap"];

/** A key one or two edits away from a record crawlers act on: a misspelling that silently drops the rule. */
function misspeltKey(key: string): string | null {
  if (KNOWN_KEYS.includes(key)) return null;
  return KNOWN_KEYS.find((known) => editDistance(key, known) <= 2 && Math.abs(key.length - known.length) <= 2) ?? null;
}

function editDistance(left: string, right: string): number {
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let row = 1; row <= left.length; row += 1) {
    const current = [row];
    for (let column = 1; column <= right.length; column += 1) {
      const substitution = (previous[column - 1] ?? 0) + (left[row - 1] === right[column - 1] ? 0 : 1);
      current.push(Math.min((previous[column] ?? 0) + 1, (current[column - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[right.length] ?? 0;
}

export function parseRobots(text: string): Robots {
  const robots: Robots = { groups: [], sitemaps: [], orphanContentSignals: [], orphanContentUsage: [], badLines: [] };
  let group: RobotsGroup | null = null;
  let previousWasAgent = false;
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  lines.forEach((rawLine, index) => {
    const line = rawLine.replace(/#.*$/, "").trim();
    if (line === "") return;
    const bad = (reason: string): void => {
      robots.badLines.push({ line: index + 1, text: line.length > 80 ? `${line.slice(0, 79)}…` : line, reason });
    };
    const separator = line.indexOf(":");
    if (separator === -1) {
      bad("not a `key: value` line");
      return;
    }
    const key = line.slice(0, separator).trim().toLowerCase();
    const value = line.slice(separator + 1).trim();
    const meant = misspeltKey(key);
    if (meant !== null) {
      bad(`${quoteSiteText(line.slice(0, separator).trim(), 40)} is not a record crawlers know; ${meant} was meant?`);
      return;
    }
    if (key === "user-agent") {
      if (group === null || !previousWasAgent) {
        group = { agents: [], rules: [], contentSignals: [], contentUsage: [] };
        robots.groups.push(group);
      }
      if (value === "") bad("a User-agent line without a product token");
      group.agents.push(value.toLowerCase());
      previousWasAgent = true;
      return;
    }
    previousWasAgent = false;
    if (key === "sitemap") robots.sitemaps.push(value);
    else if (key === "content-signal")
      (group === null ? robots.orphanContentSignals : group.contentSignals).push(value);
    else if (key === "content-usage") (group === null ? robots.orphanContentUsage : group.contentUsage).push(value);
    else if (key === "allow" || key === "disallow") {
      if (group === null) bad("a rule before any User-agent line, which no crawler reads");
      else if (value !== "" && !value.startsWith("/") && !value.startsWith("*"))
        bad("a path that does not start with / (or *), which matches nothing");
      else if (value !== "") group.rules.push({ allow: key === "allow", path: value });
    }
  });
  return robots;
}

/** The groups that govern a crawler (RFC 9309 §2.2.1): its own, merged, or else the wildcard ones. */
export function groupsFor(robots: Robots, token: string): RobotsGroup[] {
  const wanted = token.toLowerCase();
  const own = robots.groups.filter((group) => group.agents.includes(wanted));
  return own.length > 0 ? own : robots.groups.filter((group) => group.agents.includes("*"));
}

export function namesAgent(robots: Robots, token: string): boolean {
  const wanted = token.toLowerCase();
  return robots.groups.some((group) => group.agents.includes(wanted));
}

/** Longest match wins; on a tie, allow wins (RFC 9309 §2.2.2). `*` and `$` are honoured. */
export function isAllowed(robots: Robots, token: string, path: string): boolean {
  let best: RobotsRule | null = null;
  for (const group of groupsFor(robots, token)) {
    for (const rule of group.rules) {
      if (!pathMatches(rule.path, path)) continue;
      if (best === null || rule.path.length > best.path.length || (rule.path.length === best.path.length && rule.allow))
        best = rule;
    }
  }
  return best === null || best.allow;
}

/**
 * RFC 9309 §2.2.3 patterns: `*` is any run of characters, a final `$` anchors the end. Matched with two pointers
 * rather than a regular expression, because robots.txt comes from the site and `*a*a*a*…` would make a backtracking
 * engine explode.
 */
export function pathMatches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith("$");
  const body = anchored ? pattern.slice(0, -1) : pattern;
  let p = 0;
  let s = 0;
  let star = -1;
  let resume = 0;
  while (s < path.length) {
    if (p < body.length && body[p] === "*") {
      star = p;
      resume = s;
      p += 1;
    } else if (p < body.length && body[p] === path[s]) {
      p += 1;
      s += 1;
    } else if (p === body.length && !anchored) {
      return true;
    } else if (star !== -1) {
      p = star + 1;
      resume += 1;
      s = resume;
    } else {
      return false;
    }
  }
  while (p < body.length && body[p] === "*") p += 1;
  return p === body.length;
}
