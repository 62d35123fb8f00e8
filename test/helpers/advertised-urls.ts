import { isJson, type Json, operationsOf } from "./openapi.ts";

/** A URL some discovery file advertises, and what it promises about it. */
export interface Advert {
  url: string;
  method: "GET" | "POST";
  /** The media type it declares, when it declares one. */
  type?: string;
  authentication?: "none" | "bearer";
  source: string;
}

/** Every URL every discovery file advertises, with the method, type and authentication it states. */
export async function advertisedUrls(base: string): Promise<Advert[]> {
  const get = (path: string) => fetch(new URL(path, base));
  const json = (path: string) => fetchJson(base, path);
  const adverts: Advert[] = [];
  const add = (
    source: string,
    url: unknown,
    method: "GET" | "POST" = "GET",
    type?: unknown,
    authentication?: "none" | "bearer",
  ) => {
    if (typeof url === "string" && url !== "")
      adverts.push({
        url,
        method,
        source,
        ...(typeof type === "string" ? { type } : {}),
        ...(authentication ? { authentication } : {}),
      });
  };
  const home = await get("/");
  for (const match of (home.headers.get("link") ?? "").matchAll(/<([^>]+)>;([^,]*)/g))
    add("Link header on /", new URL(match[1] ?? "", base).href, "GET", /type="([^"]+)"/.exec(match[2] ?? "")?.[1]);
  const capabilities = await json("/capabilities.json");
  for (const capability of list(capabilities.capabilities)) {
    const authentication =
      isJson(capability.authentication) && capability.authentication.type === "bearer" ? "bearer" : "none";
    add(
      "capabilities.json",
      capability.endpoint,
      capability.method === "POST" ? "POST" : "GET",
      undefined,
      authentication,
    );
    add("capabilities.json", capability.request_schema, "GET", "application/schema+json");
    if (isJson(capability.authentication) && isJson(capability.authentication.oauth))
      add("capabilities.json", capability.authentication.oauth.resource_metadata, "GET", "application/json");
    add("capabilities.json", capability.docs);
  }
  const agents = await json("/agents.json");
  const registration = isJson(agents.registration) ? agents.registration : {};
  add("agents.json", registration.endpoint, "POST", undefined, "none");
  add("agents.json", registration.request_schema, "GET", "application/schema+json");
  add("agents.json", registration.docs);
  const tools = isJson(agents.tools) ? agents.tools : {};
  add("agents.json", tools.openapi, "GET", "application/vnd.oai.openapi+json");
  add("agents.json", tools.skills, "GET", "application/json");
  add("agents.json", tools.capabilities, "GET", "application/json");
  if (isJson(tools.mcp)) {
    add("agents.json", tools.mcp.endpoint, "POST");
    add("agents.json", tools.mcp.agent_endpoint, "POST", undefined, "bearer");
    add("agents.json", tools.mcp.server_card, "GET", "application/mcp-server-card+json");
  }
  const oauth = isJson(agents.oauth) ? agents.oauth : {};
  add("agents.json", oauth.authorization_server, "GET", "application/json");
  add("agents.json", oauth.docs);
  for (const resource of list(oauth.protected_resources))
    add("agents.json", resource.resource_metadata, "GET", "application/json");
  for (const endpoint of list(agents.endpoints)) {
    add(
      "agents.json",
      endpoint.url,
      endpoint.method === "POST" ? "POST" : "GET",
      undefined,
      isJson(endpoint.authentication) && endpoint.authentication.type === "bearer" ? "bearer" : "none",
    );
  }
  const catalog = await json("/.well-known/api-catalog");
  for (const context of list(catalog.linkset)) {
    add("api-catalog anchor", context.anchor);
    for (const [relation, targets] of Object.entries(context))
      for (const target of list(targets)) add(`api-catalog ${relation}`, target.href, "GET", target.type);
  }
  const aiCatalog = await json("/.well-known/ai-catalog.json");
  add("ai-catalog host", isJson(aiCatalog.host) ? aiCatalog.host.documentationUrl : undefined);
  for (const entry of list(aiCatalog.entries))
    add(`ai-catalog ${text(entry.identifier)}`, entry.url, "GET", entry.type);
  const card = await json("/mcp/server-card");
  for (const remote of list(card.remotes)) add("MCP card remotes", remote.url, "POST");
  add("MCP card endpoint", card.endpoint, "POST");
  add("MCP card websiteUrl", card.websiteUrl);
  const skills = await json("/.well-known/agent-skills/index.json");
  for (const skill of list(skills.skills))
    add(
      "skills index",
      new URL(text(skill.url), `${base}/.well-known/agent-skills/index.json`).href,
      "GET",
      "text/markdown",
    );
  for (const link of markdownLinks(await (await get("/llms.txt")).text())) add("llms.txt", link);
  for (const link of markdownLinks(await (await get("/AGENTS.md")).text())) add("AGENTS.md", link);
  const terms = await json("/terms.json");
  for (const policy of list(terms.policies)) {
    add("terms.json", policy.url);
    add("terms.json", policy.json, "GET", "application/json");
  }
  const root = await json("/api/v1");
  for (const key of ["docs", "capabilities", "api_catalog", "openapi"]) add("/api/v1", root[key]);
  const openapi = await json("/openapi.json");
  for (const operation of operationsOf(openapi)) {
    if (operation.method === "GET" && !operation.template.includes("{"))
      add(
        `openapi.json ${operation.id}`,
        operation.template,
        "GET",
        undefined,
        Array.isArray(operation.operation.security) && operation.operation.security.length > 0 ? "bearer" : "none",
      );
  }
  return adverts;
}

export async function fetchJson(base: string, path: string): Promise<Json> {
  const response = await fetch(new URL(path, base));
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
  const value: unknown = await response.json();
  if (!isJson(value)) throw new Error(`${path} is not a JSON object`);
  return value;
}

export const list = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isJson) : []);
export const text = (value: unknown): string => (typeof value === "string" ? value : "");
const markdownLinks = (markdown: string) =>
  [...markdown.matchAll(/\]\((https?:\/\/[^)\s]+)\)/g)].map((match) => match[1] ?? "");
