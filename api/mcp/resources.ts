import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
} from "@modelcontextprotocol/sdk/types.js";
import type { BuildContext } from "../../src/lib/outputs/artifact.ts";
import { docMarkdown, docPage } from "../../src/lib/outputs/docs.ts";
import { policyMarkdown } from "../../src/lib/outputs/policies.ts";
import { sortDocs } from "../../src/lib/sidebar.ts";
import { absolute, paths } from "../../src/lib/urls.ts";

export const MARKDOWN = "text/markdown";

/** A resource with its body: the Markdown the site serves at the same URL. */
interface Shelved {
  listing: Resource;
  text: string;
}

function shelved(listing: Omit<Resource, "mimeType" | "size">, text: string): Shelved {
  return { listing: { ...listing, mimeType: MARKDOWN, size: Buffer.byteLength(text) }, text };
}

/**
 * The published docs, policies and agent skills as MCP resources, each named by the https URL of its
 * Markdown twin so that an agent can fetch the same bytes over HTTP. Built once from the content the
 * server already holds, with the functions the build writes the twins with: nothing is read per request.
 */
export class ResourceShelf {
  readonly #byUri: ReadonlyMap<string, Shelved>;
  readonly listing: readonly Resource[];

  constructor(site: BuildContext) {
    const { content } = site;
    const items: Shelved[] = [
      ...sortDocs(content.docs).map((doc) => {
        const page = docPage(doc, site);
        return shelved(
          {
            uri: page.markdown_url,
            name: `docs/${doc.path}`,
            title: doc.data.title,
            description: doc.data.description,
            annotations: { lastModified: doc.data.published_at },
            _meta: { "dev.agentready/version": doc.data.version },
          },
          docMarkdown(page, site),
        );
      }),
      ...content.policies.map((policy) =>
        shelved(
          {
            uri: absolute(site.docsUrl, paths.policyMarkdown(policy.slug)),
            name: `policies/${policy.slug}`,
            title: policy.data.title,
            description: policy.data.description,
            annotations: { lastModified: policy.data.published_at },
            _meta: { "dev.agentready/version": policy.data.version },
          },
          policyMarkdown(policy.data.title, policy.data.version, policy.body),
        ),
      ),
      // Skills are resources only where they are published over HTTP too.
      ...(content.service.publish.agent_skills ? content.skills : []).map((skill) =>
        shelved(
          {
            uri: absolute(site.siteUrl, paths.skill(skill.slug)),
            name: `skills/${skill.slug}`,
            title: skill.data.name,
            description: skill.data.description,
          },
          skill.raw.toString("utf8"),
        ),
      ),
    ];
    this.#byUri = new Map(items.map((item) => [item.listing.uri, item]));
    this.listing = items.map((item) => item.listing);
    this.templates = resourceTemplates(site);
  }

  /** The same resources by name (RFC 6570 URI templates), for a client that knows a page's path or a slug. */
  readonly templates: readonly ResourceTemplate[];

  read(uri: string): ReadResourceResult {
    const item = this.#byUri.get(uri);
    // SEP-2164: an unknown resource is Invalid Params, with the URI in `data`.
    if (!item)
      throw new McpError(ErrorCode.InvalidParams, `No resource ${uri}; resources/list lists every one.`, { uri });
    return { contents: [{ uri, mimeType: MARKDOWN, text: item.text }] };
  }

  /** Answers resources/list (all at once: the set is small), resources/templates/list and resources/read on `server`. */
  serveOn(server: Server): void {
    server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [...this.listing] }));
    server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [...this.templates] }));
    server.setRequestHandler(ReadResourceRequestSchema, (request) => this.read(request.params.uri));
  }
}

/**
 * One template per kind of resource, expanding to exactly the URIs resources/list gives (the same
 * path functions make both), so whatever a client fills in reads like a listed resource.
 */
function resourceTemplates(site: BuildContext): ResourceTemplate[] {
  const { content } = site;
  const template = (uriTemplate: string, name: string, title: string, description: string): ResourceTemplate => ({
    uriTemplate,
    name,
    title,
    description,
    mimeType: MARKDOWN,
  });
  return [
    template(
      absolute(site.docsUrl, paths.docMarkdown("{+path}")),
      "docs",
      "Documentation page",
      "A current documentation page as Markdown, by its path (e.g. quickstart, store/downloads).",
    ),
    template(
      absolute(site.docsUrl, paths.policyMarkdown("{slug}")),
      "policies",
      "Policy",
      "A current policy as Markdown, by its slug (e.g. privacy, refunds).",
    ),
    ...(content.service.publish.agent_skills
      ? [
          template(
            absolute(site.siteUrl, paths.skill("{slug}")),
            "skills",
            "Agent skill",
            "A published agent skill's SKILL.md, by its slug.",
          ),
        ]
      : []),
  ];
}
