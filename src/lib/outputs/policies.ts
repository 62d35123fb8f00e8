import type { PolicyEntry } from "../../content/model.ts";
import { absolute, paths } from "../urls.ts";
import { type Artifact, type BuildContext, jsonArtifact, TYPES } from "./artifact.ts";

export function policySummary(policy: PolicyEntry, ctx: BuildContext) {
  return {
    slug: policy.slug,
    title: policy.data.title,
    description: policy.data.description,
    version: policy.data.version,
    effective_at: policy.data.effective_at,
    published_at: policy.data.published_at,
    placements: policy.data.placements,
    url: absolute(ctx.docsUrl, paths.policy(policy.slug)),
    markdown_url: absolute(ctx.docsUrl, paths.policyMarkdown(policy.slug)),
  };
}

function versionRefs(policy: PolicyEntry, ctx: BuildContext) {
  return [
    {
      version: policy.data.version,
      published_at: policy.data.published_at,
      superseded_at: null,
      url: absolute(ctx.siteUrl, paths.policyJson(policy.slug)),
    },
    ...policy.archive.map((archived) => ({
      version: archived.data.version,
      published_at: archived.data.published_at,
      superseded_at: archived.data.superseded_at,
      url: absolute(ctx.siteUrl, paths.archivedPolicyJson(policy.key, archived.data.version)),
    })),
  ];
}

export function policyPage(policy: PolicyEntry, ctx: BuildContext) {
  return { ...policySummary(policy, ctx), body: policy.body, versions: versionRefs(policy, ctx), superseded_at: null };
}

/** The Markdown twin of a policy version (`/policies/{slug}.md`, and the archive's). */
export function policyMarkdown(title: string, version: string, body: string): string {
  return `# ${title}\n\nVersion ${version}.\n\n${body.trimEnd()}\n`;
}

export function policyArtifacts(ctx: BuildContext): Artifact[] {
  const artifacts: Artifact[] = [
    jsonArtifact(
      "/api/v1/policies",
      { data: ctx.content.policies.map((policy) => policySummary(policy, ctx)) },
      "docs",
    ),
  ];
  for (const policy of ctx.content.policies) {
    artifacts.push(jsonArtifact(paths.policyJson(policy.slug), policyPage(policy, ctx), "docs"));
    artifacts.push({
      url: paths.policyMarkdown(policy.slug),
      body: policyMarkdown(policy.data.title, policy.data.version, policy.body),
      type: TYPES.markdown,
      cache: "docs",
    });
    const versions = versionRefs(policy, ctx);
    for (const archived of policy.archive) {
      artifacts.push(
        jsonArtifact(
          paths.archivedPolicyJson(policy.key, archived.data.version),
          {
            ...policySummary(policy, ctx),
            title: archived.data.title,
            description: archived.data.description,
            version: archived.data.version,
            effective_at: archived.data.effective_at,
            published_at: archived.data.published_at,
            placements: archived.data.placements,
            url: absolute(ctx.docsUrl, paths.archivedPolicy(policy.key, archived.data.version)),
            markdown_url: absolute(ctx.docsUrl, `${paths.archivedPolicy(policy.key, archived.data.version)}.md`),
            body: archived.body,
            versions,
            superseded_at: archived.data.superseded_at,
          },
          "docs",
        ),
      );
      artifacts.push({
        url: `${paths.archivedPolicy(policy.key, archived.data.version)}.md`,
        body: policyMarkdown(archived.data.title, archived.data.version, archived.body),
        type: TYPES.markdown,
        cache: "docs",
      });
    }
  }
  return artifacts;
}
