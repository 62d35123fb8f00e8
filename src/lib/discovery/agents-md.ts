import { AGENT_SCOPES, OPERATIONS } from "../registry.ts";
import { absolute, paths } from "../urls.ts";
import { SCOPE_DESCRIPTIONS } from "./agents.ts";
import type { DiscoveryContext } from "./documents.ts";
import { MCP_CARD_PATHS, MCP_PATH } from "./mcp-card.ts";

/**
 * `/AGENTS.md` (agents.md): how an agent should work with this service, generated from the same
 * content and registry as every other discovery file so that names, paths and scopes agree.
 * It names the contract; `/capabilities.json` says what works right now.
 */
export function agentsMarkdown(ctx: DiscoveryContext): string {
  const { service, skills } = ctx.content;
  const site = (path: string) => absolute(ctx.siteUrl, path);
  const operation = (id: string) => {
    const found = OPERATIONS.find((candidate) => candidate.id === id);
    return found ? `\`${found.method} ${site(found.path)}\`` : "";
  };
  const lines = [
    `# ${service.name}: working with this service as an agent`,
    "",
    `> ${service.tagline}`,
    "",
    service.description,
    "",
    "## Where to start",
    "",
    `- [${site("/capabilities.json")}](${site("/capabilities.json")}): what works **now**. Anything not listed there is switched off or unavailable; do not call it.`,
    `- [${site("/openapi.json")}](${site("/openapi.json")}): the OpenAPI 3.1 description of every endpoint, body, status and error.`,
    `- [${site("/agents.json")}](${site("/agents.json")}): registration, token format, scopes and tools for agents.`,
    `- [${site("/llms.txt")}](${site("/llms.txt")}): the documentation index; every page is also Markdown (\`.md\` or \`Accept: text/markdown\`).`,
    `- [${site("/.well-known/api-catalog")}](${site("/.well-known/api-catalog")}) (RFC 9727) and [${site("/.well-known/ai-catalog.json")}](${site("/.well-known/ai-catalog.json")}): catalogs of the API, the MCP server and the skills.`,
    "",
    "## Main tasks",
    "",
    `- Run a readiness check: ${operation("runCheck")} with \`{"domain": "example.com"}\`; read it later with ${operation("getCheck")}.`,
    `- Register, then join the agent waiting list: ${operation("registerAgent")}, then ${operation("joinAgentWaitlist")} with the token.`,
    `- Buy and download: ${operation("listProducts")}, then ${operation("startStoreCheckout")}.`,
    `- Read docs and policies: ${operation("listDocs")}, ${operation("listPolicies")}.`,
    "",
    "## Authentication",
    "",
    `Most endpoints need nothing. Agent endpoints take \`Authorization: Bearer <token>\`; get a token from ${operation("registerAgent")} (shown once). Scopes:`,
    "",
    ...AGENT_SCOPES.map((scope) => `- \`${scope}\`: ${SCOPE_DESCRIPTIONS[scope] ?? scope}`),
    "",
    "A missing or bad token is `401` with `WWW-Authenticate: Bearer`; a token without the scope is `403` naming the scope.",
    "",
  ];
  if (service.publish.mcp_server) {
    lines.push(
      "## MCP",
      "",
      `The same services are tools of an MCP server at \`${site(MCP_PATH)}\` (Streamable HTTP, stateless). Its card is at ${site(MCP_CARD_PATHS[0])}; its tools, with the catalogue revision, at ${site("/api/v1/tools")}. Tools that act for a registration take the same bearer token.`,
      "",
    );
  }
  if (service.publish.agent_skills && skills.length > 0) {
    lines.push("## Skills", "", `Index with digests: ${site("/.well-known/agent-skills/index.json")}.`, "");
    for (const skill of skills)
      lines.push(`- [${skill.data.name}](${site(paths.skill(skill.slug))}): ${skill.data.description}`);
    lines.push("");
  }
  lines.push(
    "## Conventions and limits",
    "",
    "- Errors are `application/problem+json` (RFC 9457) with a stable `code`; a `422` lists every violation in `errors[]` with a JSON Pointer.",
    "- Rate-limited endpoints send `RateLimit` and `RateLimit-Policy`; a `429` says when to retry in `Retry-After`. A `503` means switched off or a component down: see `/api/v1/config` and `/status.json`.",
    '- Collections are `{"data": [...]}`; timestamps are ISO 8601 UTC with milliseconds; ids are stable.',
    `- Forms need the current policy versions (\`consent_version\`): read them from ${site("/terms.json")}.`,
    "- The waiting-list and survey writes are not idempotent: do not retry them blindly; read your standing instead.",
    "",
    "## Contact",
    "",
    `${service.contact.email}; security reports to ${service.contact.security} (see ${site("/.well-known/security.txt")}).`,
    "",
  );
  return lines.join("\n");
}
