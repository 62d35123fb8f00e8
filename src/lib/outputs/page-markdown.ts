import { PROBLEM_TYPES } from "../problems.ts";
import { buildSidebar, sortDocs } from "../sidebar.ts";
import { absolute, paths } from "../urls.ts";
import { type Artifact, type BuildContext, TYPES } from "./artifact.ts";

const md = (url: string, body: string, cache: Artifact["cache"] = "docs"): Artifact => ({
  url,
  body,
  type: TYPES.markdown,
  cache,
});

function homeMarkdown(ctx: BuildContext): string {
  const { service } = ctx.content;
  const docs = sortDocs(ctx.content.docs).slice(0, 8);
  return [
    `# ${service.name}`,
    "",
    `> ${service.tagline}`,
    "",
    service.description,
    "",
    "## Start here",
    "",
    `- [llms.txt](${absolute(ctx.siteUrl, "/llms.txt")}): the documentation index for agents`,
    `- [Capabilities](${absolute(ctx.siteUrl, "/capabilities.json")}): what works now`,
    `- [API catalog](${absolute(ctx.siteUrl, "/.well-known/api-catalog")}): RFC 9727 linkset`,
    `- [Run a readiness check](${absolute(ctx.docsUrl, paths.docMarkdown("checks"))})`,
    "",
    "## Documentation",
    "",
    ...docs.map(
      (doc) => `- [${doc.data.title}](${absolute(ctx.docsUrl, paths.docMarkdown(doc.path))}): ${doc.data.description}`,
    ),
    "",
  ].join("\n");
}

/** The docs home as Markdown: every section and page, linking to their Markdown. */
function docsHomeMarkdown(ctx: BuildContext): string {
  const lines = [
    `# ${ctx.content.service.name} documentation`,
    "",
    `> Every page is Markdown at its address plus .md. The index for agents: ${absolute(ctx.siteUrl, "/llms.txt")}`,
    "",
  ];
  for (const group of buildSidebar(ctx.content.docs)) {
    lines.push(`## ${group.title ?? "Pages"}`, "");
    for (const { doc } of group.pages)
      lines.push(
        `- [${doc.data.title}](${absolute(ctx.docsUrl, paths.docMarkdown(doc.path))}): ${doc.data.description}`,
      );
    lines.push("");
  }
  return lines.join("\n");
}

export function pageMarkdownArtifacts(ctx: BuildContext): Artifact[] {
  const { articles, records } = ctx.content;
  return [
    md("/index.md", homeMarkdown(ctx)),
    md("/docs.md", docsHomeMarkdown(ctx)),
    ...articles.map((article) =>
      md(
        paths.articleMarkdown(article.slug),
        `# ${article.data.title}\n\n> ${article.data.description}\n\n${article.data.author}, ${article.data.published_at.slice(0, 10)}\n\n${article.body.trimEnd()}\n`,
      ),
    ),
    ...records.map((record) => {
      const claims = record.data.claims.map((claim) => {
        const evidence = claim.evidence.map(
          (item) => `  - ${item.kind}: ${item.summary}${item.url ? ` (${item.url})` : ""}`,
        );
        const replaced = claim.superseded_by ? ` Superseded by ${claim.superseded_by}.` : "";
        return [`- **${claim.label}** (${claim.id}): ${claim.statement}${replaced}`, ...evidence].join("\n");
      });
      return md(
        `/records/${record.slug}.md`,
        `# ${record.data.title}\n\n> ${record.data.description}\n\n${record.body.trimEnd()}\n\n## Claims\n\n${claims.join("\n")}\n`,
      );
    }),
    md(
      "/problems.md",
      `# Problem types\n\n| Status | Code | Title |\n|---|---|---|\n${PROBLEM_TYPES.map((type) => `| ${type.status} | [${type.code}](${absolute(ctx.siteUrl, paths.problem(type.code))}) | ${type.title} |`).join("\n")}\n`,
    ),
    ...PROBLEM_TYPES.map((type) =>
      md(
        `/problems/${type.code}.md`,
        `# ${type.title}\n\nHTTP ${type.status}, code \`${type.code}\`.\n\n${type.meaning}\n\n## What to do\n\n${type.action}\n`,
      ),
    ),
  ];
}
