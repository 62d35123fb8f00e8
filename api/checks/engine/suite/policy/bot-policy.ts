import { quoteSiteText } from "../../../../../src/lib/site-text.ts";
import { defineCheck, fail, judge, listProblems, warn } from "../../check-types.ts";
import { describeState } from "../../documents/document.ts";
import { loadRobots } from "../../documents/site.ts";
import { isAllowed, namesAgent, type Robots } from "../../parse/robots.ts";
import { advertisesAgentSurfaces } from "../../site-facts.ts";
import { webBotAuth } from "./web-bot-auth.ts";

/** A sample per class from ai-robots-txt/ai.robots.txt (robots.json, 2026-08-22). */
const AI_AGENTS = {
  training: ["GPTBot", "ClaudeBot", "Google-Extended", "CCBot"],
  search: ["OAI-SearchBot", "Claude-SearchBot", "PerplexityBot"],
  "user-fetch": ["ChatGPT-User", "Claude-User", "Perplexity-User"],
} as const;

function allowedCount(robots: Robots, agents: readonly string[], path: string): number {
  return agents.filter((agent) => isAllowed(robots, agent, path)).length;
}

export const aiBotPolicy = defineCheck({
  id: "policy.ai-bots",
  requests: "`robots.txt` groups",
  passes:
    "a policy for training crawlers, search crawlers, user-triggered fetchers and agents; fails only on contradictions: disallowing user-triggered agents, `/llms.txt` or `/.well-known/` while publishing that surface; blocking every AI crawler on a site that publishes none is a consistent policy",
  title: "robots.txt states an AI bot policy without contradictions",
  category: "bot-policy",
  severity: "medium",
  maturity: "standard",
  profiles: "all",
  remediation:
    "State your policy for AI crawlers explicitly (named groups or a wildcard group), and never block user-triggered agents, /llms.txt or /.well-known/ while you publish agent surfaces.",
  prompt:
    "Review our robots.txt: keep a `User-agent: *` group, add explicit groups for GPTBot, ClaudeBot, Google-Extended, OAI-SearchBot, PerplexityBot, ChatGPT-User and Claude-User reflecting our policy, and make sure /llms.txt and /.well-known/ are allowed for all of them.",
  specUrls: ["https://www.rfc-editor.org/rfc/rfc9309", "https://github.com/ai-robots-txt/ai.robots.txt"],
  async run(context) {
    const { document, robots } = await loadRobots(context);
    if (robots === null) {
      if (document.state === "broken")
        return fail(
          `robots.txt answers ${document.response.status}; crawlers treat that as "disallow everything" (RFC 9309 §2.3.1.4)`,
        );
      return warn(
        `${describeState(document, "robots.txt")}; no AI policy is stated (everything is allowed by default)`,
      );
    }
    const matrix = Object.entries(AI_AGENTS).map(
      ([kind, agents]) => `${kind} ${allowedCount(robots, agents, "/")}/${agents.length}`,
    );
    const contradictions: string[] = [];
    const userAgents = AI_AGENTS["user-fetch"];
    const { signals } = context.facts;
    const agentSurfaces = advertisesAgentSurfaces(signals);
    if (agentSurfaces && allowedCount(robots, userAgents, "/") < userAgents.length) {
      contradictions.push("user-triggered agents are disallowed although the site publishes agent surfaces");
    }
    // A surface the site does not publish cannot be contradicted: blocking every AI crawler on a site without
    // llms.txt or agent surfaces is a consistent policy (a hold-out news site was wrongly failed for it).
    const published = [
      ...(signals.llmsTxt ? ["/llms.txt"] : []),
      ...(agentSurfaces ? ["/.well-known/api-catalog"] : []),
    ];
    for (const path of published) {
      const blocked = ["*", ...userAgents].filter((agent) => !isAllowed(robots, agent, path));
      if (blocked.length > 0)
        contradictions.push(
          `${path.startsWith("/.well-known") ? "/.well-known/" : path} is disallowed for ${blocked.join(", ")}`,
        );
    }
    const named = Object.values(AI_AGENTS)
      .flat()
      .filter((agent) => namesAgent(robots, agent));
    const wildcard = robots.groups.some((group) => group.agents.includes("*"));
    const unstated = named.length === 0 && !wildcard ? ["no wildcard group and no AI bot named"] : [];
    const outcome = judge(
      { problems: contradictions, cautions: unstated },
      `${named.length > 0 ? `${named.length} AI bot(s) named` : "wildcard policy"}`,
    );
    return { ...outcome, message: `${outcome.message}; allowed at /: ${matrix.join(", ")}` };
  },
});

const SIGNAL_KEYS = new Set(["search", "ai-input", "ai-train"]);

export const contentSignals = defineCheck({
  id: "policy.content-signals",
  requests: "`robots.txt`",
  passes: "a `Content-Signal` line setting `search`, `ai-input` and `ai-train`; some of them is `warn`",
  title: "robots.txt declares Content Signals",
  category: "bot-policy",
  severity: "medium",
  maturity: "draft",
  profiles: ["content"],
  remediation:
    "Add a Content-Signal line (search, ai-input, ai-train, each yes or no) inside a User-agent group of robots.txt.",
  prompt:
    "Add to the `User-agent: *` group of our robots.txt a line such as `Content-Signal: search=yes, ai-input=yes, ai-train=no` reflecting our policy (all three keys, values yes/no).",
  specUrls: ["https://contentsignals.org", "https://datatracker.ietf.org/doc/draft-romm-aipref-contentsignals/"],
  async run(context) {
    const { document, robots } = await loadRobots(context);
    if (robots === null) return fail(`${describeState(document, "robots.txt")}, so no Content-Signal can be declared`);
    const grouped = robots.groups.flatMap((group) => group.contentSignals);
    const all = [...grouped, ...robots.orphanContentSignals];
    if (all.length === 0) return fail("robots.txt has no Content-Signal line");
    const keys = new Set<string>();
    const invalid: string[] = [];
    for (const line of all) {
      for (const pair of line.split(",")) {
        const [key = "", value = ""] = pair.split("=").map((part) => part.trim().toLowerCase());
        if (!SIGNAL_KEYS.has(key) || (value !== "yes" && value !== "no")) invalid.push(quoteSiteText(pair.trim(), 80));
        else keys.add(key);
      }
    }
    const cautions = [
      ...(grouped.length === 0 ? ["Content-Signal appears only outside a User-agent group"] : []),
      ...(keys.size < SIGNAL_KEYS.size
        ? [
            `Content-Signal sets ${keys.size === 0 ? "no valid key" : `only ${[...keys].join(", ")}`}; missing ${[...SIGNAL_KEYS].filter((key) => !keys.has(key)).join(", ")}`,
          ]
        : []),
    ];
    return judge(
      { problems: invalid.length > 0 ? [`invalid Content-Signal entries: ${listProblems(invalid)}`] : [], cautions },
      `Content-Signal sets search, ai-input and ai-train (${quoteSiteText(all[0] ?? "")})`,
    );
  },
});

export const botPolicyChecks = [aiBotPolicy, contentSignals, webBotAuth];
