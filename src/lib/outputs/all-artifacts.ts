import type { Artifact, BuildContext } from "./artifact.ts";
import { collectionArtifacts } from "./collections.ts";
import { discoveryArtifacts } from "./discovery.ts";
import { docArtifacts } from "./docs.ts";
import { pageMarkdownArtifacts } from "./page-markdown.ts";
import { policyArtifacts } from "./policies.ts";
import { productPageArtifacts } from "./product-pages.ts";
import { storeArtifacts } from "./store.ts";
import { textArtifacts } from "./text-files.ts";

/** Everything the build writes besides the HTML pages Astro renders. */
export function allArtifacts(ctx: BuildContext): Artifact[] {
  const artifacts = [
    ...docArtifacts(ctx),
    ...policyArtifacts(ctx),
    ...collectionArtifacts(ctx),
    ...storeArtifacts(ctx),
    ...textArtifacts(ctx),
    ...pageMarkdownArtifacts(ctx),
    ...productPageArtifacts(ctx),
    ...discoveryArtifacts(ctx, {
      openapi: true,
      mcpCard: ctx.content.service.publish.mcp_server && ctx.content.service.publish.mcp_server_card,
    }),
  ];
  const seen = new Set<string>();
  for (const artifact of artifacts) {
    if (seen.has(artifact.url)) throw new Error(`Two build outputs claim ${artifact.url}`);
    seen.add(artifact.url);
  }
  return artifacts;
}
