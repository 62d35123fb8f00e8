import { LEGEND_KEY, PRIVACY_KEY } from "../../content/load-policies.ts";
import type { Content } from "../../content/model.ts";
import { OPERATIONS, type Operation } from "../registry.ts";
import { FEATURE_SWITCHES, FORM_SWITCHES } from "../switches.ts";
import { absolute, paths } from "../urls.ts";
import { MCP_AGENT_PATH, protectedResource } from "./oauth.ts";
import { isOperationAvailable, openSwitches, operationUnavailability, type ServiceState } from "./state.ts";

/** Where the documents are published; the same for the build and the running server. */
export interface DiscoveryContext {
  content: Content;
  siteUrl: string;
  docsUrl: string;
}

export function serviceRef({ content, siteUrl }: DiscoveryContext) {
  const { name, identifier, version } = content.service;
  return { name, identifier, version, url: siteUrl };
}

/** How to authenticate for an operation: an agent token, or an OAuth token issued for the resource the operation is part of. */
export function authentication(operation: Operation, ctx: Pick<DiscoveryContext, "siteUrl">) {
  if (operation.authentication.type === "none") return { type: "none" as const };
  const resource = protectedResource(ctx.siteUrl, operation.path === MCP_AGENT_PATH ? "mcp-agent" : "api");
  return {
    type: "bearer" as const,
    scheme: "Bearer" as const,
    scope: operation.authentication.scope,
    obtain: absolute(ctx.siteUrl, "/api/v1/agents/register"),
    oauth: { resource: resource.url, resource_metadata: resource.metadataUrl },
  };
}

export function availableOperations(ctx: DiscoveryContext, state: ServiceState): Operation[] {
  return OPERATIONS.filter((operation) => isOperationAvailable(operation, state, ctx.content.service));
}

/**
 * The published capabilities that do not work now and why ("database is unavailable", a switch's
 * reason): what the capabilities file and the service state say beside what they list.
 */
function unavailableCapabilities(ctx: DiscoveryContext, state: ServiceState) {
  return OPERATIONS.flatMap((operation) => {
    const why = operationUnavailability(operation, state, ctx.content.service);
    if (!why || why.kind === "unpublished" || !operation.capability) return [];
    if (why.kind === "switched-off") return [{ capability: operation.capability, reason: why.reason }];
    // A component left unconfigured on purpose (no payment keys in development) is not an outage.
    const standing = state.components[why.component] === "not-configured" ? "not configured" : "unavailable";
    return [{ capability: operation.capability, reason: `${why.component} is ${standing}` }];
  });
}

export function capabilitiesDocument(ctx: DiscoveryContext, state: ServiceState) {
  return {
    $schema: absolute(ctx.siteUrl, paths.schema("capabilities")),
    service: serviceRef(ctx),
    generated_at: state.checkedAt,
    capabilities: availableOperations(ctx, state)
      .filter((operation) => operation.capability !== undefined)
      .map((operation) => ({
        id: operation.capability ?? operation.id,
        summary: operation.summary,
        endpoint: absolute(ctx.siteUrl, operation.path),
        method: operation.method,
        authentication: authentication(operation, ctx),
        ...(operation.requestSchema
          ? { request_schema: absolute(ctx.siteUrl, paths.schema(operation.requestSchema)) }
          : {}),
        ...(operation.rateLimit ? { rate_limit: operation.rateLimit } : {}),
        docs: absolute(ctx.docsUrl, operation.docs),
      })),
    // Left out of `capabilities`, and said here: an agent learns the database is down, not only that writes vanished.
    unavailable: unavailableCapabilities(ctx, state),
  };
}

export function serviceStateDocument(ctx: DiscoveryContext, state: ServiceState) {
  const unavailable = unavailableCapabilities(ctx, state);
  const degraded = Object.values(state.components).includes("unavailable");
  const open = openSwitches(state, ctx.content.service);
  return {
    $schema: absolute(ctx.siteUrl, paths.schema("service-state")),
    service: serviceRef(ctx),
    status: degraded ? ("degraded" as const) : ("ok" as const),
    checked_at: state.checkedAt,
    forms: Object.fromEntries(
      FORM_SWITCHES.map((name) => [name, open[name] ? ("open" as const) : ("closed" as const)]),
    ),
    features: Object.fromEntries(
      FEATURE_SWITCHES.map((name) => [name, open[name] ? ("on" as const) : ("off" as const)]),
    ),
    components: { ...state.components },
    unavailable,
  };
}

export function currentPolicyVersions(content: Content) {
  const privacy = content.policies.find((policy) => policy.key === PRIVACY_KEY);
  const legend = content.policies.find((policy) => policy.key === LEGEND_KEY);
  if (!privacy || !legend) throw new Error("The privacy policy and the legend terms must be published");
  return { privacy_version: privacy.data.version, legend_terms_version: legend.data.version };
}

export function termsDocument(ctx: DiscoveryContext) {
  return {
    $schema: absolute(ctx.siteUrl, paths.schema("terms")),
    service: serviceRef(ctx),
    consent: currentPolicyVersions(ctx.content),
    policies: ctx.content.policies.map((policy) => ({
      slug: policy.slug,
      title: policy.data.title,
      version: policy.data.version,
      effective_at: policy.data.effective_at,
      placements: policy.data.placements,
      url: absolute(ctx.docsUrl, paths.policy(policy.slug)),
      json: absolute(ctx.siteUrl, paths.policyJson(policy.slug)),
    })),
    contact: { ...ctx.content.service.contact },
  };
}

export function roadmapDocument(ctx: DiscoveryContext) {
  const { roadmap } = ctx.content;
  return {
    $schema: absolute(ctx.siteUrl, paths.schema("roadmap")),
    service: serviceRef(ctx),
    updated_at: roadmap.updated_at,
    states: ["exploring", "planned", "committed", "in-progress", "shipped"] as const,
    // Dates appear only for committed work: a date on anything else would read as a promise.
    items: roadmap.items.map(({ id, title, description, state, target_date }) =>
      state === "committed" && target_date
        ? { id, title, description, state, target_date }
        : { id, title, description, state },
    ),
  };
}
