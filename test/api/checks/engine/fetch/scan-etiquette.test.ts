import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TargetNotAllowedError } from "../../../../../api/checks/engine/fetch/address-guard.ts";
import { runReadinessCheck } from "../../../../../api/checks/engine/run-check.ts";
import { defineCheckerSettings } from "../../../../../api/checks/engine/settings.ts";
import { startAgentReadySite } from "../../../../fixtures/sites/agent-ready.ts";
import {
  startCatchAllJsonSite,
  startRateLimitedSite,
  startRedirectToPrivateSite,
} from "../../../../fixtures/sites/hostile.ts";
import type { FixtureSite } from "../../../../fixtures/sites/serve.ts";
import { checkSite, messageOf, noDns, settingsFor, statusOf } from "../_helpers.ts";

describe("a site that answers 429", () => {
  let site: FixtureSite;
  beforeAll(async () => {
    site = await startRateLimitedSite();
  });
  afterAll(() => site.close());

  it("makes the checks that needed the refused requests blocked, never fail or missing", async () => {
    const result = await checkSite(site);
    for (const id of [
      "robots.exists",
      "robots.sitemap",
      "llms.exists",
      "http.soft404",
      "security.txt",
      "policy.content-signals",
      "md.negotiate",
      "freshness",
    ]) {
      expect(statusOf(result, id), id).toBe("blocked");
    }
    expect(messageOf(result, "robots.exists")).toMatch(
      /429 Too Many Requests asking to wait 120 s \(Retry-After: 120\), past what is left of the scan's 15 s budget, so the scan stopped asking/,
    );
    const evidenceOf429 = result.details.flatMap((detail) =>
      detail.evidence.filter((entry) => entry.response?.status === 429).map(() => detail.id),
    );
    for (const id of evidenceOf429) expect(statusOf(result, id)).not.toBe("fail");
  });

  it("marks the report incomplete, shows no score, and says how many checks the site's rate limit kept from a verdict", async () => {
    const result = await checkSite(site);
    expect(result.incomplete).toBe(true);
    expect(result.score.percent).toBeNull();
    const blockedChecks = result.findings.filter((finding) => finding.status === "blocked").length;
    expect(blockedChecks).toBeGreaterThan(5);
    expect(result.blocked?.checks).toBe(blockedChecks);
    expect(new Set(result.blocked?.signals.map((signal) => signal.kind))).toEqual(new Set(["rate-limit"]));
    expect(result.blocked?.allow).toMatch(
      /Allow the User-Agent "AgentReadyBot\/1\.0 \(\+https:\/\/agent-ready\.test\/docs\/checks\/crawler\)"/,
    );
  });

  it("stops asking once told to slow down", async () => {
    const before = site.requests.length;
    const result = await checkSite(site);
    const limited = site.requests.slice(before).filter((request) => request.path !== "/");
    expect(result.requests).toBeLessThanOrEqual(8);
    expect(limited.length).toBeLessThanOrEqual(6);
  });
});

describe("a redirect to a private address in the middle of a scan", () => {
  let site: FixtureSite;
  beforeAll(async () => {
    site = await startRedirectToPrivateSite();
  });
  afterAll(() => site.close());

  it("is not followed, and the check it broke fails with the redirect as evidence", async () => {
    const result = await checkSite(site);
    expect(statusOf(result, "robots.exists")).toBe("fail");
    expect(messageOf(result, "robots.exists")).toBe(
      `robots.txt is unusable: ${site.origin}/robots.txt redirects to http://10.0.0.1/robots.txt, which no public client may reach: 10.0.0.1 is a private address (RFC 1918)`,
    );
    const evidence = result.details.find((detail) => detail.id === "robots.exists")?.evidence[0];
    expect(evidence?.response?.status).toBe(302);
    expect(evidence?.response?.headers.location).toBe("http://10.0.0.1/robots.txt");
    expect(site.requests.some((request) => request.path === "/robots.txt")).toBe(true);
    expect(result.incomplete).toBe(false);
  });
});

describe("a site that answers every path with the same JSON", () => {
  let site: FixtureSite;
  beforeAll(async () => {
    site = await startCatchAllJsonSite();
  });
  afterAll(() => site.close());

  it("has its documents recognised as the soft-404 body, not as found", async () => {
    const result = await checkSite(site, { profile: ["content", "docs", "api", "agent"] });
    expect(result.profile.inferred).toEqual(["content"]);
    expect(statusOf(result, "http.soft404")).toBe("fail");
    expect(messageOf(result, "robots.exists")).toBe(
      "robots.txt answers 200 with the same body as a path that cannot exist (a catch-all), not the document",
    );
    for (const id of ["llms.exists", "catalog.api", "mcp.card", "skills.index"])
      expect(statusOf(result, id), id).toBe("fail");
    // An optional surface behind the catch-all is absent: the one root cause is charged to http.soft404 alone.
    expect(statusOf(result, "a2a.card")).toBe("n/a");
    expect(messageOf(result, "a2a.card")).toMatch(
      /answers the site's fallback page \(charged once, to http\.soft404\)/,
    );
  });
});

describe("runReadinessCheck", () => {
  let site: FixtureSite;
  beforeAll(async () => {
    site = await startAgentReadySite();
  });
  afterAll(() => site.close());

  it("refuses a private target that is not allow-listed before sending anything", async () => {
    const before = site.requests.length;
    await expect(
      runReadinessCheck({ target: site.origin, settings: defineCheckerSettings(), lookup: noDns }),
    ).rejects.toBeInstanceOf(TargetNotAllowedError);
    expect(site.requests.length).toBe(before);
  });

  it("reports error, not fail, for checks starved by the request budget", async () => {
    const result = await runReadinessCheck({
      target: site.origin,
      settings: settingsFor(site, { maxRequests: 15 }),
      lookup: noDns,
    });
    expect(result.requests).toBeLessThanOrEqual(15);
    expect(result.score.error).toBeGreaterThan(0);
    const budgetErrors = result.findings.filter((finding) =>
      finding.message.includes("budget of 15 requests is spent"),
    );
    expect(budgetErrors.length).toBeGreaterThan(0);
    for (const finding of budgetErrors) expect(finding.status).toBe("error");
  });

  it("applies a profile override and still shows the inferred profiles", async () => {
    const result = await checkSite(site, { profile: ["content"] });
    expect(result.profile).toMatchObject({
      inferred: ["content", "docs", "api", "agent", "commerce"],
      applied: ["content"],
      overridden: true,
    });
    expect(statusOf(result, "mcp.card")).toBe("n/a");
    expect(messageOf(result, "mcp.card")).toBe("applies to agent sites; this one was checked as content");
  });

  it("reports progress once per check, after the profiles", async () => {
    const events: string[] = [];
    await checkSite(site, {
      onProgress: (event) => events.push(event.kind === "profile" ? "profile" : event.finding.id),
    });
    expect(events[0]).toBe("profile");
    expect(new Set(events.slice(1)).size).toBe(events.length - 1);
    expect(events.length - 1).toBeGreaterThanOrEqual(38);
  });

  it("stamps the result with the injected clock", async () => {
    const result = await checkSite(site, { now: () => new Date(Date.now() - 60_000) });
    expect(result.checked_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(result.checked_at)).toBeLessThan(Date.now() - 59_000);
  });
});
