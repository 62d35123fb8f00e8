import {
  type CheckContext,
  defineCheck,
  fail,
  isSecureOrLocal,
  judge,
  notApplicable,
  pass,
} from "../../check-types.ts";
import { describeState } from "../../documents/document.ts";
import { ACCEPT_MCP_CARD, foundCards, type LoadedMcpCard, loadMcpCards, probeMcpCards } from "../../documents/mcp.ts";
import { probeMcpEndpoint } from "../../mcp-probe.ts";
import { describeIssues } from "../../parse/json.ts";
import { cardEndpoints, cardIdentity, McpCardV1Schema } from "../../remote/mcp-card.ts";
import { Verdict } from "../../verdict.ts";

const CARD_SPEC = "https://github.com/modelcontextprotocol/experimental-ext-server-card";

const DISCOVERY = "ext-server-card docs/discovery.md";

/**
 * CORS is a MUST for discovery documents, Cache-Control a SHOULD; an ETag answered with 304 is good practice. Returns
 * what the card's delivery does right, for the pass message, which must not claim what is missing.
 */
async function judgeDelivery(context: CheckContext, card: LoadedMcpCard, verdict: Verdict): Promise<string[]> {
  const { response } = card.document;
  const held: string[] = [];
  if (response.headers["access-control-allow-origin"] !== "*")
    verdict.must(`${DISCOVERY} §CORS`, "the card is served without Access-Control-Allow-Origin: *");
  else held.push("CORS");
  if (response.headers["cache-control"] === undefined)
    verdict.should(`${DISCOVERY} §Caching`, "no Cache-Control on the card");
  else held.push("caching");
  const etag = response.headers.etag;
  if (etag === undefined) verdict.hint("RFC 9110 §8.8.3", "no ETag on the card, so clients re-download it");
  else {
    const revalidated = await context.trail.get(response.requestUrl, {
      accept: ACCEPT_MCP_CARD,
      "if-none-match": etag,
    });
    if (revalidated.status !== 304)
      verdict.should("RFC 9110 §13.1.2", `If-None-Match with the card's ETag answers ${revalidated.status}, not 304`);
    else held.push("ETag/304");
  }
  return held;
}

export const mcpCard = defineCheck({
  id: "mcp.card",
  requests:
    "MCP and AI catalog entries, `<endpoint>/server-card`, `/.well-known/mcp/server-card.json`, `/.well-known/mcp.json`",
  passes:
    "a v1 or v2 server card (or a registry `server.json` of schema 2025-12-11) with an `https` remote and CORS (MUSTs); `Cache-Control`, `ETag` with `304`, copies that agree and the current shape (SHOULDs); every location is probed even when one fails",
  title: "An MCP server card describes the MCP server",
  category: "capabilities",
  severity: "medium",
  maturity: "draft",
  profiles: ["agent"],
  remediation:
    "Publish a v1 server card ($schema exact, reverse-DNS name, version, description ≤ 100 chars, remotes[].url over https) at <mcp-url>/server-card, list it in the AI catalog, alias it at /.well-known/mcp/server-card.json and /.well-known/mcp.json, with CORS *, Cache-Control and an ETag.",
  prompt:
    'Publish our MCP server card at <mcp endpoint>/server-card with {"$schema":"https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json","name":"com.example/server","version":"1.0.0","description":"≤100 chars","remotes":[{"type":"streamable-http","url":"https://…/mcp"}]} plus legacy serverInfo{name,version} and endpoint; serve the same bytes at /.well-known/mcp/server-card.json and /.well-known/mcp.json with Access-Control-Allow-Origin: *, Cache-Control: public, max-age=3600 and an ETag honoured by If-None-Match.',
  specUrls: [CARD_SPEC, "https://github.com/modelcontextprotocol/modelcontextprotocol/pull/2127"],
  async run(context) {
    const { cards, unreachable } = await probeMcpCards(context);
    const found = foundCards(cards);
    const best = found[0];
    const broken = cards.filter(
      (card) => card.document.state === "broken" || (card.document.state === "found" && card.card === null),
    );
    if (best === undefined) {
      if (broken.length > 0)
        return judge(
          {
            problems: broken.map((card) => describeState(card.document, new URL(card.url).pathname)),
            cautions: unreachable.map(({ url, error }) => `${new URL(url).pathname} did not answer: ${error.message}`),
          },
          "",
        );
      const failure = unreachable[0];
      if (failure !== undefined) throw failure.error;
      return fail(`no MCP server card at ${cards.map((card) => new URL(card.url).pathname).join(", ")}`);
    }
    const verdict = new Verdict();
    if (best.shape === "invalid") {
      const issues = McpCardV1Schema.safeParse(best.card);
      verdict.must(
        "SEP-2127 schema.ts",
        `the card at ${new URL(best.url).pathname} is neither a v1/v2 nor a legacy card: ${issues.success ? "" : describeIssues(issues.error)}`,
      );
      return verdict.outcome("");
    }
    const insecure = cardEndpoints(best.card, best.document.response.url).filter(
      (endpoint) => !isSecureOrLocal(context, new URL(endpoint)),
    );
    if (insecure.length > 0)
      verdict.must(`${DISCOVERY} §Transport Security`, `remote URL(s) are not https: ${insecure.join(", ")}`);
    const delivered = await judgeDelivery(context, best, verdict);
    for (const card of broken)
      verdict.should(
        DISCOVERY,
        `another copy is unusable: ${describeState(card.document, new URL(card.url).pathname)}`,
      );
    for (const { url, error } of unreachable)
      verdict.should(DISCOVERY, `${new URL(url).pathname} did not answer: ${error.message}`);
    if (new Set(found.map((card) => JSON.stringify(cardIdentity(card.card)))).size > 1)
      verdict.should(`${DISCOVERY} §Consistency`, "the card copies disagree on name or version");
    if (best.shape === "legacy")
      verdict.should(
        "SEP-2127",
        `outdated shape: only SEP-1649/legacy fields or a server.json schema older than 2025-12-11 at ${new URL(best.url).pathname}; add the current fields ($schema, name, version, description, remotes)`,
      );
    const identity = cardIdentity(best.card);
    const served = delivered.length === 0 ? "" : `, with ${delivered.join(", ").replace(/, ([^,]*)$/, " and $1")}`;
    return verdict.outcome(
      `card ${identity.name ?? ""} ${identity.version ?? ""} at ${found.length} location(s)${served}`,
    );
  },
});

function runtimeMatchesCard(card: unknown, runtime: { name: string; version: string }): string | null {
  const identity = cardIdentity(card);
  const names = [identity.runtimeName, identity.name, identity.name?.split("/")[1] ?? null].filter(
    (name): name is string => name !== null,
  );
  if (!names.includes(runtime.name))
    return `the server calls itself "${runtime.name}", the card "${identity.runtimeName ?? identity.name ?? "?"}"`;
  if (identity.version !== null && identity.version !== runtime.version)
    return `the server reports version ${runtime.version}, the card ${identity.version}`;
  return null;
}

export const mcpLive = defineCheck({
  id: "mcp.live",
  requests: "`initialize`, `notifications/initialized` and `tools/list` on the card's remote",
  passes:
    "a Streamable HTTP answer whose server name and version match the card, and tools with descriptions and input schemas; `401` with `resource_metadata` when auth is required",
  title: "The MCP endpoint answers initialize and tools/list like its card says",
  category: "capabilities",
  severity: "high",
  maturity: "standard",
  profiles: ["agent"],
  remediation:
    "Make the card's remote URL a working Streamable HTTP MCP endpoint whose serverInfo name and version match the card, and whose tools all have descriptions and input schemas.",
  prompt:
    'Make sure POST <mcp url> with an MCP initialize request answers with serverInfo {name, version} equal to our server card, accepts notifications/initialized (202), and that tools/list returns every tool with a description and an inputSchema. If auth is required, answer 401 with WWW-Authenticate: Bearer resource_metadata="…".',
  specUrls: ["https://modelcontextprotocol.io/specification/2025-11-25/basic/transports", CARD_SPEC],
  async run(context) {
    const best = foundCards(await loadMcpCards(context)).find((card) => card.shape !== "invalid");
    if (best === undefined) return notApplicable("no usable MCP server card (see mcp.card)");
    const endpoint = cardEndpoints(best.card, best.document.response.url)[0];
    if (endpoint === undefined) return notApplicable("the server card names no streamable-http endpoint");
    if (new URL(endpoint).origin !== context.target.origin)
      return notApplicable(
        `the card's endpoint is on another origin (${new URL(endpoint).origin}): the scanner sends MCP requests only to the origin it checks; check that origin itself`,
      );
    const probe = await probeMcpEndpoint(context, endpoint);
    if (probe.status === "auth-required")
      return pass("the endpoint requires authorization and says where its resource metadata is");
    if (probe.status === "failed" || probe.serverInfo === null)
      return judge({ problems: probe.problems, cautions: probe.cautions }, "");
    const drift = runtimeMatchesCard(best.card, probe.serverInfo);
    return judge(
      { problems: drift === null ? [] : [`card drift: ${drift}`], cautions: probe.cautions },
      `${probe.serverInfo.name} ${probe.serverInfo.version} (protocol ${probe.protocolVersion ?? "?"}) lists ${probe.tools} documented tool(s)`,
    );
  },
});

export const mcpChecks = [mcpCard, mcpLive];
