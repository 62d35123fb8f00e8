import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_CHECKER_LIMITS } from "../../../../../api/checks/engine/settings.ts";
import type { ReadinessResult } from "../../../../../src/schemas/report.ts";
import { type BotProtection, startBotProtectedSite } from "../../../../fixtures/sites/bot-protected.ts";
import type { FixtureSite } from "../../../../fixtures/sites/serve.ts";
import { checkSite, idsWith, messageOf, statusOf } from "../_helpers.ts";

const { maxRequests, scanBudgetMs, maxConcurrency } = DEFAULT_CHECKER_LIMITS;
// A "missing" verdict in any of its forms: what a blocked check must never say.
const SAYS_MISSING = /is missing|no llms\.txt|not found|does not exist|answers 403 at/;

let site: FixtureSite | null = null;
afterEach(async () => {
  await site?.close();
  site = null;
});

async function scan(protection: BotProtection): Promise<{ result: ReadinessResult; site: FixtureSite }> {
  site = await startBotProtectedSite(protection);
  return { result: await checkSite(site), site };
}

const blockedMessages = (result: ReadinessResult): string[] =>
  result.findings.filter((finding) => finding.status === "blocked").map((finding) => finding.message);

describe("a site whose bot protection blocks, challenges, answers 429 without Retry-After and blocks more as the scan goes on", () => {
  it("stays within the request and time budgets, stops after the 429, and says blocked, never missing", async () => {
    const started = performance.now();
    const { result, site: protectedSite } = await scan({ growAfter: 30, tooManyAt: "/.well-known/security.txt" });
    const elapsed = performance.now() - started;
    expect(protectedSite.requests.length).toBeLessThanOrEqual(maxRequests);
    expect(result.requests).toBe(protectedSite.requests.length);
    // The scan's own budget plus one request timeout for what was in flight, on a loaded machine.
    expect(elapsed).toBeLessThan(scanBudgetMs + 5_000);
    const limited = protectedSite.requests.findIndex((request) => request.path === "/.well-known/security.txt");
    if (limited !== -1) expect(protectedSite.requests.length - limited - 1).toBeLessThanOrEqual(maxConcurrency);
    expect(result.incomplete).toBe(true);
    expect(result.score.percent).toBeNull();
    expect(result.blocked?.checks).toBe(idsWith(result, "blocked").length);
    for (const message of blockedMessages(result)) {
      expect(message).toMatch(/blocked by the site's bot protection|^not sent/);
      expect(message).not.toMatch(SAYS_MISSING);
    }
    expect(statusOf(result, "llms.exists")).toBe("blocked");
    // Whichever comes first, the 429 or the growing blocking, stops the scan; the rest is what was seen before.
    const kinds = new Set(result.blocked?.signals.map((signal) => signal.kind));
    expect(kinds.has("user-agent") && kinds.has("challenge")).toBe(true);
    expect(kinds.has("rate-limit") || kinds.has("growing")).toBe(true);
  });
});

describe("the bot-protection watch", () => {
  it("takes a 403 that a browser's User-Agent does not get for blocking, with the browser's answer as evidence", async () => {
    const { result } = await scan({});
    expect(statusOf(result, "llms.exists")).toBe("blocked");
    expect(messageOf(result, "llms.exists")).toContain(
      "GET /llms.txt with our User-Agent got 403 text/plain; the same request with a browser's User-Agent and no signature got 200 text/plain",
    );
    const evidence = result.details.find((detail) => detail.id === "llms.exists")?.evidence ?? [];
    const browser = evidence.find((entry) => entry.request.headers["user-agent"]?.startsWith("Mozilla/5.0"));
    expect(browser?.response?.status).toBe(200);
    expect(evidence.find((entry) => entry.response?.status === 403)?.finding).toBe(
      "blocked by the site's bot protection",
    );
    expect(result.blocked?.signals).toContainEqual(expect.objectContaining({ kind: "user-agent" }));
    expect(result.blocked?.allow).toMatch(/Allow the User-Agent "AgentReadyBot\/1\.0 .*at least for .*\/llms\.txt/);
  });

  it("takes a challenge page served with 200 for blocking, not for the document", async () => {
    const { result } = await scan({});
    expect(statusOf(result, "robots.sitemap")).toBe("blocked");
    expect(messageOf(result, "robots.sitemap")).toMatch(/got 200 text\/html \(a go-away challenge page\)/);
    expect(result.blocked?.signals).toContainEqual(expect.objectContaining({ kind: "challenge" }));
  });

  it("stops at a 429 without Retry-After and sends nothing more than what was already in flight", async () => {
    const { result, site: protectedSite } = await scan({ tooManyAt: "/robots.txt" });
    expect(statusOf(result, "robots.exists")).toBe("blocked");
    expect(messageOf(result, "robots.exists")).toMatch(
      /GET \/robots\.txt with our User-Agent got 429 Too Many Requests without Retry-After, so the scan stopped asking/,
    );
    const limited = protectedSite.requests.findIndex((request) => request.path === "/robots.txt");
    expect(protectedSite.requests.length - limited - 1).toBeLessThanOrEqual(maxConcurrency);
    expect(result.blocked?.signals).toContainEqual(expect.objectContaining({ kind: "rate-limit" }));
  });

  it("waits out a Retry-After that ends within the scan's budget, then judges the answer", async () => {
    const started = performance.now();
    const { result, site: protectedSite } = await scan({
      tooManyAt: "/robots.txt",
      retryAfter: "1",
      tooManyOnce: true,
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(statusOf(result, "robots.exists")).toBe("pass");
    expect(protectedSite.requests.filter((request) => request.path === "/robots.txt").length).toBe(2);
    expect(result.blocked?.signals.some((signal) => signal.kind === "rate-limit") ?? false).toBe(false);
  });

  it("sees blocking that grows during the scan, says so, and stops asking", async () => {
    const { result, site: protectedSite } = await scan({ growAfter: 12 });
    expect(result.blocked?.signals).toContainEqual(expect.objectContaining({ kind: "growing" }));
    const grown = result.findings.find((finding) => /answered 2xx/.test(finding.message));
    expect(grown?.status).toBe("blocked");
    // The comparison and the re-check are the only requests after blocking began, besides those in flight.
    expect(protectedSite.requests.length).toBeLessThanOrEqual(12 + maxConcurrency + 2);
    for (const message of blockedMessages(result)) expect(message).not.toMatch(SAYS_MISSING);
  });

  it("leaves a 403 that a browser gets too as the site's own answer", async () => {
    const { result } = await scan({ forbidLlms: true });
    expect(statusOf(result, "llms.exists")).toBe("fail");
    expect(messageOf(result, "llms.exists")).toMatch(/403/);
    expect(result.blocked?.signals.some((signal) => signal.url.endsWith("/llms.txt")) ?? false).toBe(false);
  });
});
