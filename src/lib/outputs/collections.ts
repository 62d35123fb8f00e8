import type { SlugEntry } from "../../content/model.ts";
import type { ArticleFrontmatter } from "../../schemas/article.ts";
import type { RecordFrontmatter } from "../../schemas/record.ts";
import { absolute, paths } from "../urls.ts";
import { type Artifact, type BuildContext, jsonArtifact } from "./artifact.ts";

function articleSummary(article: SlugEntry<ArticleFrontmatter>, ctx: BuildContext) {
  return {
    slug: article.slug,
    title: article.data.title,
    description: article.data.description,
    author: article.data.author,
    published_at: article.data.published_at,
    updated_at: article.data.updated_at ?? null,
    tags: article.data.tags,
    url: absolute(ctx.docsUrl, paths.article(article.slug)),
  };
}

function recordPage(record: SlugEntry<RecordFrontmatter>, ctx: BuildContext) {
  return {
    slug: record.slug,
    title: record.data.title,
    description: record.data.description,
    published_at: record.data.published_at,
    updated_at: record.data.updated_at ?? null,
    claims: record.data.claims,
    body: record.body,
    url: absolute(ctx.docsUrl, paths.record(record.slug)),
  };
}

export function collectionArtifacts(ctx: BuildContext): Artifact[] {
  const { articles, records, resources, service } = ctx.content;
  const artifacts: Artifact[] = [
    jsonArtifact("/api/v1/articles", { data: articles.map((article) => articleSummary(article, ctx)) }, "docs"),
    ...articles.map((article) =>
      jsonArtifact(paths.articleJson(article.slug), { ...articleSummary(article, ctx), body: article.body }, "docs"),
    ),
    jsonArtifact(
      "/api/v1/records",
      {
        data: records.map((record) => {
          const { claims, body: _body, ...summary } = recordPage(record, ctx);
          return { ...summary, claim_count: claims.length };
        }),
      },
      "docs",
    ),
    ...records.map((record) => jsonArtifact(paths.recordJson(record.slug), recordPage(record, ctx), "docs")),
  ];
  // Unpublished resources have no file at all, so the URL answers 404 as the API description says.
  if (service.publish.resources) {
    artifacts.push(
      jsonArtifact(
        "/api/v1/resources",
        { data: resources.map((resource) => ({ slug: resource.slug, ...resource.data, body: resource.body })) },
        "docs",
      ),
    );
  }
  return artifacts;
}
