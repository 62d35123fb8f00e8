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
}

export interface Robots {
  groups: RobotsGroup[];
  sitemaps: string[];
  /** `Content-Signal:` lines that appear before any group. */
  orphanContentSignals: string[];
  /** Lines that are neither blank, comments, nor `key: value`. */
  unparsedLines: number;
}

export function parseRobots(text: string): Robots {
  const robots: Robots = { groups: [], sitemaps: [], orphanContentSignals: [], unparsedLines: 0 };
  let group: RobotsGroup | null = null;
  let previousWasAgent = false;
  for (const rawLine of text.split(/\r\n|\r|\n/)) {
    const line = rawLine.replace(/#.*$/, "").trim();
    if (line === "") continue;
    const separator = line.indexOf(":");
    if (separator === -1) {
      robots.unparsedLines += 1;
      continue;
    }
    const key = line.slice(0, separator).trim().toLowerCase();
    const value = line.slice(separator + 1).trim();
    if (key === "user-agent") {
      if (group === null || !previousWasAgent) {
        group = { agents: [], rules: [], contentSignals: [] };
        robots.groups.push(group);
      }
      group.agents.push(value.toLowerCase());
      previousWasAgent = true;
      continue;
    }
    previousWasAgent = false;
    if (key === "sitemap") robots.sitemaps.push(value);
    else if (key === "content-signal")
      (group === null ? robots.orphanContentSignals : group.contentSignals).push(value);
    else if ((key === "allow" || key === "disallow") && group !== null && value !== "") {
      group.rules.push({ allow: key === "allow", path: value });
    }
  }
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
