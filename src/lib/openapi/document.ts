import type { DiscoveryContext } from "../discovery/documents.ts";
import { OPERATIONS } from "../registry.ts";
import { absolute, paths } from "../urls.ts";
import { problemResponses, referencedHeaders, schemaComponents, securitySchemes } from "./components.ts";
import { API_BASE, operationObject, pathKey, TAG_LIST } from "./operations.ts";

type Json = Record<string, unknown>;

/**
 * `/openapi.json`: the OpenAPI 3.1 description of every operation in the registry, generated from it
 * and from the zod schemas (the same ones the server validates with and `/schemas/` publishes).
 * It describes the contract, switched-off operations included (they answer 503): `/capabilities.json`
 * is the document that says what works now.
 *
 * `servers` is the API base the api-catalog anchors; the operations that live at the site root
 * (health, status, MCP, discovery documents) carry a path-level `servers` entry for the root.
 */
export function openApiDocument(ctx: DiscoveryContext): Json {
  const { service, policies } = ctx.content;
  const root = [
    { url: ctx.siteUrl, description: "The site root: health, status, the MCP server and discovery documents" },
  ];
  const pathItems: Record<string, Json> = {};
  for (const operation of OPERATIONS) {
    const { key, atRoot } = pathKey(operation);
    pathItems[key] ??= atRoot ? { servers: root } : {};
    const item = pathItems[key];
    const method = operation.method.toLowerCase();
    if (method in item) throw new Error(`Two operations for ${operation.method} ${operation.path}`);
    item[method] = operationObject(operation, ctx.docsUrl);
  }
  const terms = policies.find((policy) => policy.slug === "terms");
  const responses = problemResponses(new Set(OPERATIONS.flatMap((operation) => operation.statuses)));
  return {
    openapi: "3.1.1",
    info: {
      title: `${service.name} API`,
      version: service.version,
      summary: service.tagline,
      description: `${service.description}\n\nWhat works right now is listed in ${absolute(ctx.siteUrl, "/capabilities.json")}; an operation switched off answers 503 with a problem. Errors are RFC 9457 problem details.`,
      ...(terms ? { termsOfService: absolute(ctx.docsUrl, paths.policy(terms.slug)) } : {}),
      contact: { name: service.name, email: service.contact.email, url: ctx.docsUrl },
      // Using the API is licensed by the terms of service; there is no other licence to name.
      ...(terms
        ? {
            license: { name: `${service.name} terms of service`, url: absolute(ctx.docsUrl, paths.policy(terms.slug)) },
          }
        : {}),
    },
    servers: [{ url: absolute(ctx.siteUrl, API_BASE), description: "The versioned API" }],
    tags: TAG_LIST,
    externalDocs: { description: "Documentation", url: absolute(ctx.docsUrl, paths.docsHome()) },
    paths: pathItems,
    components: {
      schemas: schemaComponents(ctx.content),
      responses,
      headers: referencedHeaders(pathItems, responses),
      securitySchemes: securitySchemes(ctx.siteUrl),
    },
  };
}
