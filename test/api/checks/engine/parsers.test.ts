import { describe, expect, it } from "vitest";
import { parseFrontmatter } from "../../../../api/checks/engine/parse/frontmatter.ts";
import {
  htmlAnchors,
  htmlLinks,
  htmlMeta,
  htmlTitle,
  jsonLdBlocks,
  visibleText,
} from "../../../../api/checks/engine/parse/html.ts";
import { parseLinkHeader } from "../../../../api/checks/engine/parse/link-header.ts";
import { parseLlmsTxt } from "../../../../api/checks/engine/parse/llms-txt.ts";
import { isAllowed, parseRobots } from "../../../../api/checks/engine/parse/robots.ts";
import { parseSecurityTxt } from "../../../../api/checks/engine/parse/security-txt.ts";
import { parseSitemap } from "../../../../api/checks/engine/parse/sitemap.ts";
import { sseDataPayloads } from "../../../../api/checks/engine/parse/sse.ts";

describe("HTML", () => {
  const page = `<!doctype html><html lang="en"><head><title>A &amp; B</title><meta name="description" content="x > y">
<link rel="canonical alternate" href="/c"><!-- <link rel="ignored" href="/no"> --></head>
<body><nav>Menu</nav><main><h1>Hello</h1><script>var x = "<p>hidden</p>";</script><p>World</p></main><footer>Foot</footer>
<script type="application/ld+json">{"@type":"WebSite"}</script></body></html>`;

  it("reads head elements, comments left out, attribute values with > kept", () => {
    expect(htmlTitle(page)).toBe("A & B");
    expect(htmlMeta(page).get("description")).toEqual(["x > y"]);
    expect(htmlLinks(page, "https://x.test/")).toEqual([
      { rels: ["canonical", "alternate"], href: "https://x.test/c", type: null },
    ]);
    expect(jsonLdBlocks(page)).toEqual(['{"@type":"WebSite"}']);
  });

  it("reads visible text without scripts, and the main content without navigation", () => {
    expect(visibleText(page)).toBe("Menu Hello World Foot");
    expect(visibleText(page, { mainOnly: true })).toBe("Hello World");
  });
});

describe("robots.txt", () => {
  const robots = parseRobots(
    "User-agent: *\nDisallow: /private\nAllow: /private/ok$\n\nUser-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\nContent-Signal: ai-train=no\n\nSitemap: https://example.com/sitemap.xml\n",
  );

  it("groups consecutive User-agent lines and keeps Sitemap outside groups", () => {
    expect(robots.groups.map((group) => group.agents)).toEqual([["*"], ["gptbot", "ccbot"]]);
    expect(robots.sitemaps).toEqual(["https://example.com/sitemap.xml"]);
    expect(robots.groups[1]?.contentSignals).toEqual(["ai-train=no"]);
  });

  it("picks a crawler's own group over the wildcard, and the longest match within it (RFC 9309)", () => {
    expect(isAllowed(robots, "GPTBot", "/")).toBe(false);
    expect(isAllowed(robots, "ClaudeBot", "/")).toBe(true);
    expect(isAllowed(robots, "ClaudeBot", "/private/x")).toBe(false);
    expect(isAllowed(robots, "ClaudeBot", "/private/ok")).toBe(true);
  });

  it("names each line a crawler would skip, with its number and why", () => {
    const bad = parseRobots(
      "Disallow: /early\nUser-agent: *\nDisalow: /typo\nDisallow private\nAllow: relative\n# fine\nCrawl-delay: 5\n",
    );
    expect(bad.badLines).toEqual([
      { line: 1, text: "Disallow: /early", reason: "a rule before any User-agent line, which no crawler reads" },
      { line: 3, text: "Disalow: /typo", reason: '"Disalow" is not a record crawlers know; disallow was meant?' },
      { line: 4, text: "Disallow private", reason: "not a `key: value` line" },
      { line: 5, text: "Allow: relative", reason: "a path that does not start with / (or *), which matches nothing" },
    ]);
    expect(bad.groups[0]?.rules).toEqual([]);
  });
});

describe("Link headers", () => {
  it("splits on commas outside <> and quotes and resolves targets", () => {
    const links = parseLinkHeader(
      '</a,b>; rel="service-desc api-catalog"; title="x, y", <https://other.example/c>; rel=alternate; type="text/markdown"',
      "https://example.com/dir/",
    );
    expect(links.map((link) => [link.href, link.rels, link.type])).toEqual([
      ["https://example.com/a,b", ["service-desc", "api-catalog"], null],
      ["https://other.example/c", ["alternate"], "text/markdown"],
    ]);
  });
});

describe("llms.txt", () => {
  it("reads the H1, the summary, sections and links", () => {
    const llms = parseLlmsTxt(
      "# Site\n\n> Summary\n\n## Docs\n\n- [A](https://x.test/a.md): note\n\n```\n# not a heading\n```\n",
    );
    expect(llms).toMatchObject({ title: "Site", h1Count: 1, startsWithH1: true, hasSummary: true, sections: ["Docs"] });
    expect(llms.links).toEqual([{ text: "A", url: "https://x.test/a.md", section: "Docs", inList: true }]);
  });
});

describe("sitemaps", () => {
  it("reads a urlset with lastmod", () => {
    const parsed = parseSitemap(
      '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://x.test/a?b=1&amp;c=2</loc><lastmod>2026-01-01</lastmod></url></urlset>',
    );
    expect(parsed).toEqual({
      ok: true,
      sitemap: { kind: "urlset", entries: [{ loc: "https://x.test/a?b=1&c=2", lastmod: "2026-01-01" }] },
    });
  });

  it("reads past a prolog of processing instructions, comments and a DOCTYPE (XML 1.0 §2.8), as WordPress writes it", () => {
    // WordPress core's wp-sitemap.xml: the XML declaration, then an xml-stylesheet PI, then the root element.
    const wordpress =
      '<?xml version="1.0" encoding="UTF-8"?>\n<?xml-stylesheet type="text/xsl" href="https://x.test/wp-sitemap-index.xsl" ?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://x.test/wp-sitemap-posts-page-1.xml</loc></sitemap></sitemapindex>\n';
    expect(parseSitemap(wordpress)).toEqual({
      ok: true,
      sitemap: {
        kind: "sitemapindex",
        entries: [{ loc: "https://x.test/wp-sitemap-posts-page-1.xml", lastmod: null }],
      },
    });
    const prolog =
      '\uFEFF<?xml version="1.0"?><!-- generated --><?xml-stylesheet href="a.xsl"?>\n<!DOCTYPE urlset [<!ENTITY home "https://x.test/">]>\n<!-- the <url>s --><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://x.test/</loc></url></urlset>';
    expect(parseSitemap(prolog)).toMatchObject({
      ok: true,
      sitemap: { kind: "urlset", entries: [{ loc: "https://x.test/" }] },
    });
  });

  it("names the root element it found instead, and a prolog left open", () => {
    expect(parseSitemap('<?xml version="1.0"?>\n<html><body>Not found</body></html>')).toEqual({
      ok: false,
      error: "the root element is <html>, neither <urlset> nor <sitemapindex>",
    });
    expect(parseSitemap('<?xml-stylesheet href="a.xsl"')).toMatchObject({
      ok: false,
      error: expect.stringContaining("prolog never ends"),
    });
  });

  it("rejects unbalanced XML and a missing namespace", () => {
    expect(
      parseSitemap('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>x</url></urlset>'),
    ).toMatchObject({ ok: false });
    expect(parseSitemap("<urlset><url><loc>x</loc></url></urlset>")).toMatchObject({
      ok: false,
      error: expect.stringContaining("namespace"),
    });
  });
});

describe("security.txt", () => {
  it("reads fields and skips comments and a PGP signature", () => {
    const fields = parseSecurityTxt(
      "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\n# hi\nContact: mailto:a@b.test\nExpires: 2027-01-01T00:00:00.000Z\n-----BEGIN PGP SIGNATURE-----\nabc: def\n-----END PGP SIGNATURE-----\n",
    );
    expect(fields).toEqual([
      { name: "contact", value: "mailto:a@b.test" },
      { name: "expires", value: "2027-01-01T00:00:00.000Z" },
    ]);
  });
});

describe("SKILL.md frontmatter", () => {
  it("parses YAML frontmatter", () => {
    expect(parseFrontmatter("---\nname: a-skill\ndescription: Does things.\n---\n# Body\n")).toEqual({
      ok: true,
      data: { name: "a-skill", description: "Does things." },
      body: "# Body\n",
    });
  });

  it("never evaluates a JavaScript frontmatter fence from a remote file", () => {
    const result = parseFrontmatter("---js\n{ name: (() => { throw new Error('ran') })() }\n---\n");
    expect(result.ok).toBe(false);
  });
});

describe("server-sent events", () => {
  it("collects multi-line data payloads per event", () => {
    expect(sseDataPayloads('event: message\ndata: {"a":\ndata: 1}\n\ndata: x\n')).toEqual(['{"a":\n1}', "x"]);
  });
});

describe("parsing what a hostile site serves", () => {
  const megabyte = (unit: string): string => unit.repeat(Math.ceil(1_000_000 / unit.length));
  const timed = (work: () => unknown): number => {
    const started = performance.now();
    work();
    return performance.now() - started;
  };

  it.each([
    ["unclosed <script tags", megabyte("<script ")],
    ["a page of <", megabyte("<")],
    ["unclosed comments", megabyte("<!--")],
    ["unclosed links with quotes", megabyte('<link href="x ')],
    ["unclosed <title>", megabyte("<title>")],
  ])("reads 1 MB of %s in linear time", (_, page) => {
    expect(
      timed(() => [
        visibleText(page, { mainOnly: true }),
        htmlLinks(page, "https://x.test/"),
        htmlMeta(page),
        htmlTitle(page),
        jsonLdBlocks(page),
        htmlAnchors(page, "https://x.test/"),
      ]),
    ).toBeLessThan(1_500);
  });

  it("matches robots.txt wildcards without backtracking blow-ups", () => {
    const robots = parseRobots(`User-agent: *\nDisallow: /${"*a".repeat(30)}b\n`);
    expect(timed(() => isAllowed(robots, "GPTBot", `/${"a".repeat(60)}`))).toBeLessThan(100);
    expect(isAllowed(robots, "GPTBot", `/${"a".repeat(60)}`)).toBe(true);
    expect(isAllowed(robots, "GPTBot", `/${"a".repeat(31)}b`)).toBe(false);
  });

  it("reads 1 MB llms.txt lines and sitemaps in linear time", () => {
    expect(timed(() => parseLlmsTxt(megabyte("[")))).toBeLessThan(1_500);
    expect(timed(() => parseLlmsTxt(megabyte('[a](b "')))).toBeLessThan(1_500);
    expect(
      timed(() =>
        parseSitemap(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${megabyte("<url><loc>")}`),
      ),
    ).toBeLessThan(1_500);
  });
});
