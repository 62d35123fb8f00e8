import { buildSidebar, sortDocs } from "../sidebar.ts";
import { absolute, paths } from "../urls.ts";
import { type Artifact, type BuildContext, TYPES } from "./artifact.ts";
import { docMarkdown, docPage } from "./docs.ts";
import { publishedProducts } from "./store.ts";

/**
 * `/llms.txt` per llmstxt.org: H1, blockquote summary, then H2 file lists of Markdown links. The few
 * links that are not Markdown (discovery documents in JSON, the one-file text) say so in their name,
 * as the introduction promises; test/api/site/discovery-files.test.ts holds every link to its label.
 */
export function llmsTxt(ctx: BuildContext): string {
  const { service, policies, articles } = ctx.content;
  const link = (title: string, url: string, note: string) => `- [${title}](${url}): ${note}`;
  const lines = [
    `# ${service.name}`,
    "",
    `> ${service.tagline}`,
    "",
    service.description,
    "",
    `Every link below leads to Markdown, except those whose name says JSON or plain text. Discovery starts at ${absolute(ctx.siteUrl, "/capabilities.json")} (what works now) and ${absolute(ctx.siteUrl, "/.well-known/api-catalog")}.`,
    "",
  ];
  for (const group of buildSidebar(ctx.content.docs)) {
    lines.push(`## ${group.title ?? "Docs"}`, "");
    for (const { doc } of group.pages) {
      lines.push(link(doc.data.title, absolute(ctx.docsUrl, paths.docMarkdown(doc.path)), doc.data.description));
    }
    lines.push("");
  }
  lines.push("## API and discovery", "");
  lines.push(
    link(
      "Capabilities (JSON)",
      absolute(ctx.siteUrl, "/capabilities.json"),
      "every capability that works now, with endpoint, method and authentication",
    ),
  );
  lines.push(link("Agents (JSON)", absolute(ctx.siteUrl, "/agents.json"), "registration, scopes and tools for agents"));
  lines.push(
    link("API catalog (JSON)", absolute(ctx.siteUrl, "/.well-known/api-catalog"), "RFC 9727 linkset of the API"),
  );
  lines.push(link("Pricing (JSON)", absolute(ctx.siteUrl, "/pricing.json"), "plans and published prices"));
  lines.push(
    link(
      "Monitoring",
      absolute(ctx.docsUrl, paths.docMarkdown("monitoring")),
      "watch a site: POST /api/v1/monitors (people, confirmed by e-mail) or POST /api/v1/agents/monitors (agents, scope monitors:write); history, badges at /badge/{domain}.svg, alerts on regressions",
    ),
  );
  lines.push(link("Documentation index (JSON)", absolute(ctx.siteUrl, "/api/v1/docs"), "every page with its version"));
  lines.push(
    link(
      "OpenAPI (JSON)",
      absolute(ctx.siteUrl, "/openapi.json"),
      "OpenAPI 3.1 description of every endpoint, body, status and error",
    ),
  );
  lines.push(link("AGENTS.md", absolute(ctx.siteUrl, "/AGENTS.md"), "how an agent should work with this service"));
  lines.push(
    link(
      "AI catalog (JSON)",
      absolute(ctx.siteUrl, "/.well-known/ai-catalog.json"),
      "the MCP server, the API and the skills, for agent registries",
    ),
  );
  if (service.publish.agent_skills)
    lines.push(
      link(
        "Agent skills index (JSON)",
        absolute(ctx.siteUrl, "/.well-known/agent-skills/index.json"),
        "step-by-step skills with digests",
      ),
    );
  lines.push("");
  lines.push("## Store", "");
  for (const product of publishedProducts(ctx)) {
    lines.push(
      link(product.data.title, absolute(ctx.docsUrl, paths.productMarkdown(product.id)), product.data.description),
    );
  }
  lines.push("");
  lines.push("## Policies", "");
  for (const policy of policies) {
    lines.push(
      link(
        policy.data.title,
        absolute(ctx.docsUrl, paths.policyMarkdown(policy.slug)),
        `version ${policy.data.version}`,
      ),
    );
  }
  lines.push("", "## Optional", "");
  lines.push(
    link(
      "Full documentation in one file (plain text)",
      absolute(ctx.siteUrl, "/llms-full.txt"),
      "every page's Markdown, in reading order",
    ),
  );
  for (const article of articles) {
    lines.push(
      link(article.data.title, absolute(ctx.siteUrl, paths.articleMarkdown(article.slug)), article.data.description),
    );
  }
  return `${lines.join("\n")}\n`;
}

export function llmsFullTxt(ctx: BuildContext): string {
  const pages = sortDocs(ctx.content.docs).map((doc) => docMarkdown(docPage(doc, ctx), ctx));
  return `# ${ctx.content.service.name}: full documentation\n\n> ${ctx.content.service.tagline}\n\n${pages.join("\n---\n\n")}`;
}

/** robots.txt: everyone welcome (agents especially), capability URLs kept out of indexes, content signals stated. */
export function robotsTxt(ctx: BuildContext): string {
  const userFetchers = [
    "ChatGPT-User",
    "Claude-User",
    "Perplexity-User",
    "OAI-SearchBot",
    "Claude-SearchBot",
    "PerplexityBot",
    "GPTBot",
    "ClaudeBot",
    "Google-Extended",
    "CCBot",
    "Applebot-Extended",
    "Amazonbot",
    "meta-externalagent",
  ];
  // Purchase sessions, download links and monitors are capabilities (the URL is the credential): never index them.
  const rules = [
    "Allow: /",
    "Disallow: /api/v1/store/sessions/",
    "Disallow: /api/v1/downloads/",
    "Disallow: /store/return",
    "Disallow: /api/v1/monitors/",
    "Disallow: /monitors/",
  ];
  return [
    `# ${ctx.content.service.name}. Agents are welcome: start at /llms.txt or /.well-known/api-catalog.`,
    "# Content signals (https://contentsignals.org): search, AI input and AI training are all allowed. The same",
    "# preferences in the IETF aipref vocabulary come as a Content-Usage header with every page (draft-ietf-aipref-attach).",
    "",
    "User-agent: *",
    "Content-Signal: search=yes, ai-input=yes, ai-train=yes",
    ...rules,
    "",
    ...userFetchers.map((agent) => `User-agent: ${agent}`),
    "Content-Signal: search=yes, ai-input=yes, ai-train=yes",
    ...rules,
    "",
    `Sitemap: ${absolute(ctx.siteUrl, "/sitemap.xml")}`,
    "",
  ].join("\n");
}

/** RFC 9116; `Expires` is set 180 days after the build, inside the recommended year. */
export function securityTxt(ctx: BuildContext): string {
  const expires = new Date(Date.parse(ctx.builtAt) + 180 * 86_400_000).toISOString();
  return [
    `Contact: mailto:${ctx.content.service.contact.security}`,
    `Expires: ${expires}`,
    "Preferred-Languages: en",
    `Canonical: ${absolute(ctx.siteUrl, "/.well-known/security.txt")}`,
    `Policy: ${absolute(ctx.docsUrl, paths.policy("terms"))}`,
    "",
  ].join("\n");
}

export function sitemapXml(ctx: BuildContext, pages: readonly { path: string; lastmod: string }[]): string {
  const escapeXml = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const urls = pages.map(
    (page) =>
      `  <url><loc>${escapeXml(absolute(ctx.docsUrl, page.path))}</loc><lastmod>${page.lastmod.slice(0, 10)}</lastmod></url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`;
}

/** Every HTML page people should find, with the date it last changed. */
export function sitemapPages(ctx: BuildContext): { path: string; lastmod: string }[] {
  const { docs, policies, articles, records, resources, service } = ctx.content;
  // ISO dates sort as strings; the build date is the floor.
  const latest = (dates: string[]) => [ctx.builtAt.slice(0, 10), ...dates].sort().at(-1) ?? ctx.builtAt;
  return [
    { path: "/", lastmod: ctx.builtAt },
    { path: paths.docsHome(), lastmod: latest(docs.map((doc) => doc.data.published_at)) },
    ...sortDocs(docs).map((doc) => ({ path: paths.doc(doc.path), lastmod: doc.data.published_at })),
    ...policies.map((policy) => ({ path: paths.policy(policy.slug), lastmod: policy.data.published_at })),
    {
      path: "/articles",
      lastmod: latest(articles.map((article) => article.data.updated_at ?? article.data.published_at)),
    },
    ...articles.map((article) => ({
      path: paths.article(article.slug),
      lastmod: article.data.updated_at ?? article.data.published_at,
    })),
    ...records.map((record) => ({
      path: paths.record(record.slug),
      lastmod: record.data.updated_at ?? record.data.published_at,
    })),
    ...(service.publish.resources && resources.length > 0 ? [{ path: "/resources", lastmod: ctx.builtAt }] : []),
    { path: "/store", lastmod: ctx.builtAt },
    ...publishedProducts(ctx).map((product) => ({ path: paths.product(product.id), lastmod: ctx.builtAt })),
    { path: "/waitlist", lastmod: ctx.builtAt },
    { path: "/checks", lastmod: ctx.builtAt },
  ];
}

export function textArtifacts(ctx: BuildContext): Artifact[] {
  return [
    { url: "/llms.txt", body: llmsTxt(ctx), type: TYPES.text, cache: "docs" },
    { url: "/llms-full.txt", body: llmsFullTxt(ctx), type: TYPES.text, cache: "docs" },
    { url: "/robots.txt", body: robotsTxt(ctx), type: TYPES.text, cache: "discovery" },
    { url: "/.well-known/security.txt", body: securityTxt(ctx), type: TYPES.text, cache: "discovery" },
    { url: "/sitemap.xml", body: sitemapXml(ctx, sitemapPages(ctx)), type: TYPES.xml, cache: "docs" },
  ];
}
