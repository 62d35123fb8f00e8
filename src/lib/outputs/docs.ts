import type { DocEntry } from "../../content/model.ts";
import type { DocIndexEntry, DocPage } from "../../schemas/doc.ts";
import { sortDocs } from "../sidebar.ts";
import { absolute, paths } from "../urls.ts";
import { type Artifact, type BuildContext, jsonArtifact, TYPES } from "./artifact.ts";

export function docIndexEntry(doc: DocEntry, ctx: BuildContext): DocIndexEntry {
  return {
    path: doc.path,
    title: doc.data.title,
    description: doc.data.description,
    section: doc.data.section,
    position: doc.data.position,
    version: doc.data.version,
    published_at: doc.data.published_at,
    url: absolute(ctx.docsUrl, paths.doc(doc.path)),
    markdown_url: absolute(ctx.docsUrl, paths.docMarkdown(doc.path)),
  };
}

function versionRefs(doc: DocEntry, ctx: BuildContext): DocPage["versions"] {
  return [
    {
      version: doc.data.version,
      published_at: doc.data.published_at,
      superseded_at: null,
      url: absolute(ctx.siteUrl, paths.docJson(doc.path)),
    },
    ...doc.archive.map((archived) => ({
      version: archived.data.version,
      published_at: archived.data.published_at,
      superseded_at: archived.data.superseded_at,
      url: absolute(ctx.siteUrl, paths.archivedDocJson(doc.key, archived.data.version)),
    })),
  ];
}

export function docPage(doc: DocEntry, ctx: BuildContext): DocPage {
  return { ...docIndexEntry(doc, ctx), body: doc.body, versions: versionRefs(doc, ctx), superseded_at: null };
}

export function archivedDocPages(doc: DocEntry, ctx: BuildContext): DocPage[] {
  const versions = versionRefs(doc, ctx);
  return doc.archive.map((archived) => ({
    path: archived.data.path,
    title: archived.data.title,
    description: archived.data.description,
    section: archived.data.section,
    position: archived.data.position,
    version: archived.data.version,
    published_at: archived.data.published_at,
    url: absolute(ctx.docsUrl, paths.archivedDoc(doc.key, archived.data.version)),
    markdown_url: absolute(ctx.docsUrl, paths.archivedDocMarkdown(doc.key, archived.data.version)),
    body: archived.body,
    versions,
    superseded_at: archived.data.superseded_at,
  }));
}

/**
 * The Markdown twin of a page: a pointer to the index for agents that landed here directly (the
 * in-page directive afdocs and Mintlify use), then the page itself.
 */
export function docMarkdown(page: DocPage, ctx: BuildContext): string {
  const superseded = page.superseded_at
    ? `\n> This version was superseded on ${page.superseded_at}. The current page: ${page.versions[0]?.url ?? ""}`
    : "";
  return [
    `> Documentation index: ${absolute(ctx.siteUrl, "/llms.txt")}. As HTML: ${page.url}. Version ${page.version}, published ${page.published_at}.${superseded}`,
    "",
    `# ${page.title}`,
    "",
    `> ${page.description}`,
    "",
    page.body.trimEnd(),
    "",
  ].join("\n");
}

export function docArtifacts(ctx: BuildContext): Artifact[] {
  const docs = sortDocs(ctx.content.docs);
  const artifacts: Artifact[] = [
    jsonArtifact("/api/v1/docs", { data: docs.map((doc) => docIndexEntry(doc, ctx)) }, "docs"),
  ];
  for (const doc of docs) {
    const page = docPage(doc, ctx);
    artifacts.push(jsonArtifact(paths.docJson(doc.path), page, "docs"));
    artifacts.push({
      url: paths.docMarkdown(doc.path),
      body: docMarkdown(page, ctx),
      type: TYPES.markdown,
      cache: "docs",
    });
    for (const archived of archivedDocPages(doc, ctx)) {
      artifacts.push(jsonArtifact(paths.archivedDocJson(doc.key, archived.version), archived, "docs"));
      artifacts.push({
        url: paths.archivedDocMarkdown(doc.key, archived.version),
        body: docMarkdown(archived, ctx),
        type: TYPES.markdown,
        cache: "docs",
      });
    }
  }
  return artifacts;
}
