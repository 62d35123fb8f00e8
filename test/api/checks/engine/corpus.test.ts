import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { CHECK_SUITE } from "../../../../api/checks/engine/suite/registry.ts";
import { renderCatalogue, replaceBody } from "../../../../scripts/catalogue/render-catalogue.ts";
import type { ReadinessResult } from "../../../../src/schemas/report.ts";
import { listCorpusSites } from "../../../fixtures/sites/corpus.ts";
import { type CorpusRun, runCorpus, toOutcome } from "../../../fixtures/sites/corpus-run.ts";
import { idsWith, messageOf, statusOf } from "./_helpers.ts";

// The corpus sites are scanned a few at a time; the hostile one takes its trickle's 5 s, and a loaded machine more.
const CORPUS_TIMEOUT = 180_000;

function disagreements(run: CorpusRun): string[] {
  const { expected } = run.site;
  const lines = toOutcome(run)
    .verdicts.filter((verdict) => verdict.expected !== verdict.got)
    .map(
      (verdict) =>
        `${run.site.name} ${verdict.id}: expected ${verdict.expected ?? "no verdict"}, got ${verdict.got} (${messageOf(run.result, verdict.id)})`,
    );
  const got = [...run.result.profile.inferred].sort();
  if (got.join() !== [...expected.profiles].sort().join())
    lines.push(`${run.site.name} profiles: expected ${expected.profiles.join(", ")}, got ${got.join(", ")}`);
  if (run.result.incomplete !== expected.incomplete)
    lines.push(`${run.site.name} incomplete: expected ${expected.incomplete}, got ${run.result.incomplete}`);
  return lines;
}

describe("the corpus of fixture sites", () => {
  let runs: CorpusRun[];
  const resultOf = (name: string): ReadinessResult => {
    const run = runs.find((candidate) => candidate.site.name === name);
    if (run === undefined) throw new Error(`no corpus site ${name}`);
    return run.result;
  };
  beforeAll(async () => {
    runs = await runCorpus();
  }, CORPUS_TIMEOUT);

  it("has at least twelve sites, each with a README and an expected verdict for every check of the suite", () => {
    const sites = listCorpusSites();
    expect(sites.length).toBeGreaterThanOrEqual(12);
    for (const site of sites) {
      const readme = readFileSync(new URL(`../../../fixtures/sites/${site.name}/README.md`, import.meta.url), "utf8");
      expect(readme, `${site.name}/README.md cites its sources`).toMatch(/https:\/\//);
      expect(Object.keys(site.expected.verdicts).sort(), site.name).toEqual(
        CHECK_SUITE.map((check) => check.id).sort(),
      );
    }
  });

  it("gives every site exactly the verdicts, profiles and completeness its expected.json names", () => {
    expect(runs.flatMap(disagreements).join("\n")).toBe("");
  });

  it("scores the exemplary site 100, with no check failing or in error", () => {
    const exemplary = resultOf("exemplary");
    expect(exemplary.score.percent).toBe(100);
    expect(idsWith(exemplary, "fail")).toEqual([]);
    expect(idsWith(exemplary, "error")).toEqual([]);
  });

  it("charges the SPA's answer-everything fallback once, on http.soft404, and leaves the optional surfaces n/a", () => {
    const spa = resultOf("spa");
    expect(statusOf(spa, "http.soft404")).toBe("fail");
    for (const id of ["llms.full", "policy.webbotauth", "agents-json", "oauth.prm", "commerce.protocols"])
      expect(statusOf(spa, id), id).toBe("n/a");
  });

  it("does not take a blog with an llms.txt for a docs site", () => {
    const blog = resultOf("blog");
    expect(blog.profile.inferred).toEqual(["content"]);
    expect(statusOf(blog, "agents-md")).toBe("n/a");
    expect(statusOf(blog, "skills.index")).toBe("n/a");
  });

  it("fails the hostile site on each of its faults, never calls them the scanner's error, and passes nothing that is not UTF-8", () => {
    const hostile = resultOf("hostile");
    expect(idsWith(hostile, "error")).toEqual([]);
    expect(hostile.incomplete).toBe(false);
    expect(messageOf(hostile, "robots.exists")).toMatch(/larger than the scan's 1 MB cap/);
    expect(messageOf(hostile, "llms.exists")).toMatch(/larger than the scan's 1 MB cap/);
    expect(messageOf(hostile, "robots.sitemap")).toMatch(/decompression bomb/);
    expect(messageOf(hostile, "link.headers")).toMatch(/10\.0\.0\.1 is a private address[\s\S]*redirects back/);
    expect(messageOf(hostile, "md.negotiate")).toMatch(/\/slow did not answer within 5 s/);
    for (const id of ["robots.exists", "llms.exists", "robots.sitemap", "link.headers", "md.negotiate"])
      expect(statusOf(hostile, id), id).toBe("fail");
    expect(statusOf(hostile, "security.txt")).toBe("fail");
    expect(messageOf(hostile, "security.txt")).toMatch(/not valid UTF-8/);
  });

  it("names the private address a homepage redirects to, instead of counting hops", () => {
    expect(messageOf(resultOf("metadata-redirect"), "http.home-200")).toMatch(
      /redirects to http:\/\/169\.254\.169\.254\/latest\/meta-data\/, which no public client may reach: 169\.254\.169\.254 is a link-local address/,
    );
  });

  it("inflates a sitemap index's .xml.gz sitemaps and samples their URLs", () => {
    expect(messageOf(resultOf("news"), "robots.sitemap")).toMatch(/5 URLs on [\d.:]+; \d sampled answer 2xx/);
  });

  it("samples all five posts of a WordPress sitemap whose prolog holds a stylesheet instruction: the budget has room", () => {
    expect(messageOf(resultOf("wordpress"), "robots.sitemap")).toMatch(/; 5 sampled answer 2xx/);
  });

  it("finds Markdown twins published only as page.html.md, and passes the homepage's clean twin", () => {
    const quarto = resultOf("docs-quarto");
    expect(statusOf(quarto, "md.twin")).toBe("pass");
    expect(messageOf(quarto, "md.twin")).toMatch(/^\/index\.html\.md\b/);
    expect(statusOf(quarto, "md.quality")).toBe("pass");
  });

  it("fails an API whose description documents 429 when its responses carry no rate-limit header", () => {
    const chat = resultOf("api-chat");
    expect(statusOf(chat, "api.ratelimit")).toBe("fail");
    expect(messageOf(chat, "api.ratelimit")).toMatch(/documents rate limiting .* no rate-limit headers/);
  });

  it("fails a malformed MCP registry key on a host that is an IP address, naming what the registry would reject", () => {
    const site = resultOf("mcp-registry-proof");
    expect(statusOf(site, "mcp.registry")).toBe("fail");
    expect(messageOf(site, "mcp.registry")).toMatch(/p= is 64 hex digits: the registry reads the 32-byte ed25519 key/);
  });

  it("says blocked with what a browser got, never missing, on the site behind bot protection, and marks it incomplete", () => {
    const guarded = resultOf("guarded");
    expect(guarded.incomplete).toBe(true);
    expect(guarded.blocked?.checks).toBe(idsWith(guarded, "blocked").length);
    expect(messageOf(guarded, "llms.exists")).toMatch(
      /GET \/llms\.txt with our User-Agent got 403 text\/plain; the same request with a browser's User-Agent and no signature got 200 text\/plain/,
    );
    for (const id of idsWith(guarded, "blocked")) expect(messageOf(guarded, id)).not.toMatch(/is missing|not found/);
  });

  it("matches the committed catalogue page, which npm run catalogue regenerates from the suite and this run", () => {
    const page = readFileSync("content/docs/checks/catalogue.md", "utf8");
    const generated = replaceBody(page, renderCatalogue(CHECK_SUITE, runs.map(toOutcome)));
    expect(page === generated, "content/docs/checks/catalogue.md is out of date: run npm run catalogue").toBe(true);
  });
});
