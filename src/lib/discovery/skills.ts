import { createHash } from "node:crypto";
import { SKILLS_DISCOVERY_SCHEMA } from "../../schemas/skill.ts";
import { paths } from "../urls.ts";
import type { DiscoveryContext } from "./documents.ts";

export function sha256Digest(bytes: Uint8Array): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

/** `/.well-known/agent-skills/index.json` (Agent Skills discovery 0.2.0); digests of the exact bytes served. */
export function skillsIndexDocument(ctx: DiscoveryContext) {
  return {
    $schema: SKILLS_DISCOVERY_SCHEMA,
    skills: ctx.content.skills.map((skill) => ({
      name: skill.data.name,
      type: "skill-md" as const,
      description: skill.data.description,
      // Relative to the index, as the discovery RFC resolves them (RFC 3986).
      url: paths.skill(skill.slug),
      digest: sha256Digest(skill.raw),
    })),
  };
}
