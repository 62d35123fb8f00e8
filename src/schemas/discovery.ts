import { z } from "zod";
import { DateSchema, MoneySchema, TimestampSchema } from "./common.ts";
import { PlacementSchema } from "./policy.ts";
import { RoadmapStateSchema } from "./roadmap.ts";

const ServiceRefSchema = z.strictObject({
  name: z.string(),
  identifier: z.string(),
  version: z.string(),
  url: z.string(),
});

export const AuthenticationSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("none") }),
  z.strictObject({
    type: z.literal("bearer"),
    /** The HTTP header and scheme: `Authorization: Bearer <token>`. */
    scheme: z.literal("Bearer"),
    /** The scope the token needs; `null` when any valid token will do. */
    scope: z.string().nullable(),
    /** Where an agent gets a token. */
    obtain: z.string(),
    /** The same operation takes an OAuth access token issued for this resource (RFC 8707); its metadata says how to get one. */
    oauth: z.strictObject({ resource: z.string(), resource_metadata: z.string() }).optional(),
  }),
]);

export const CapabilitySchema = z.strictObject({
  id: z.string(),
  summary: z.string(),
  endpoint: z.string(),
  method: z.enum(["GET", "POST"]),
  authentication: AuthenticationSchema,
  request_schema: z.string().optional(),
  rate_limit: z.string().optional(),
  docs: z.string(),
});

/** A capability that does not work now, and why: a component down ("database is unavailable") or a switch. */
export const UnavailableCapabilitySchema = z.strictObject({ capability: z.string(), reason: z.string() });

/** `/capabilities.json`: what works now. Anything not listed is not available; `unavailable` says why for published ones. */
export const CapabilitiesDocumentSchema = z.strictObject({
  $schema: z.string(),
  service: ServiceRefSchema,
  generated_at: TimestampSchema,
  capabilities: z.array(CapabilitySchema),
  unavailable: z.array(UnavailableCapabilitySchema),
});
export type CapabilitiesDocument = z.infer<typeof CapabilitiesDocumentSchema>;

/** `/.well-known/service-state.json` (and the switch part of `/api/v1/config`). */
export const ServiceStateDocumentSchema = z.strictObject({
  $schema: z.string(),
  service: ServiceRefSchema,
  status: z.enum(["ok", "degraded"]),
  checked_at: TimestampSchema,
  forms: z.record(z.string(), z.enum(["open", "closed"])),
  features: z.record(z.string(), z.enum(["on", "off"])),
  components: z.record(z.string(), z.enum(["ok", "configured", "unavailable", "not-configured"])),
  /** Capabilities that exist but do not work right now, and why. */
  unavailable: z.array(UnavailableCapabilitySchema),
});

export const PricingDocumentSchema = z.strictObject({
  $schema: z.string(),
  service: ServiceRefSchema,
  plans: z.array(
    z.strictObject({
      id: z.string(),
      title: z.string(),
      description: z.string(),
      price: MoneySchema.nullable(),
      credits: z.int().nullable(),
    }),
  ),
  checks: z.strictObject({
    free_checks_per_day: z.int(),
    unlock: MoneySchema,
    checkout: z.string().nullable(),
    redeem: z.string().nullable(),
  }),
  monitors: z.strictObject({
    /** Sites one e-mail address (or one agent registration) may watch on the free plan. */
    free_sites: z.int(),
    frequencies: z.array(z.string()),
    /** POST `{domain, email, frequency?}` here to watch a site; `null` while monitoring is unavailable. */
    request: z.string().nullable(),
  }),
  store: z.array(
    z.strictObject({
      id: z.string(),
      title: z.string(),
      kind: z.enum(["item", "fee"]),
      price: MoneySchema,
      on_sale: z.boolean(),
      checkout: z.string().nullable(),
    }),
  ),
});

export const TermsDocumentSchema = z.strictObject({
  $schema: z.string(),
  service: ServiceRefSchema,
  consent: z.strictObject({ privacy_version: z.string(), legend_terms_version: z.string() }),
  policies: z.array(
    z.strictObject({
      slug: z.string(),
      title: z.string(),
      version: z.string(),
      effective_at: DateSchema,
      placements: z.array(PlacementSchema),
      url: z.string(),
      json: z.string(),
    }),
  ),
  contact: z.strictObject({ email: z.string(), security: z.string() }),
});

export const RoadmapDocumentSchema = z.strictObject({
  $schema: z.string(),
  service: ServiceRefSchema,
  updated_at: DateSchema,
  states: z.array(RoadmapStateSchema),
  items: z.array(
    z.strictObject({
      id: z.string(),
      title: z.string(),
      description: z.string(),
      state: RoadmapStateSchema,
      target_date: DateSchema.optional(),
    }),
  ),
});

export const AgentsDocumentSchema = z.strictObject({
  $schema: z.string(),
  service: ServiceRefSchema,
  registration: z.strictObject({
    endpoint: z.string(),
    method: z.literal("POST"),
    request_schema: z.string(),
    token: z.strictObject({ header: z.string(), format: z.string(), lifetime: z.string() }),
    default_scopes: z.array(z.string()),
    docs: z.string(),
  }),
  scopes: z.array(z.strictObject({ name: z.string(), description: z.string(), operations: z.array(z.string()) })),
  tools: z.strictObject({
    openapi: z.string().nullable(),
    mcp: z
      .strictObject({
        endpoint: z.string(),
        /** The MCP endpoint that acts for one registration: it always asks for a token, and MCP clients sign in with OAuth. */
        agent_endpoint: z.string(),
        transport: z.literal("streamable-http"),
        server_card: z.string().nullable(),
      })
      .nullable(),
    skills: z.string().nullable(),
    capabilities: z.string(),
  }),
  /** Signing in with OAuth 2.1 instead of registering by hand: what MCP clients such as ChatGPT, Claude and VS Code do. */
  oauth: z.strictObject({
    authorization_server: z.string(),
    protected_resources: z.array(z.strictObject({ resource: z.string(), resource_metadata: z.string() })),
    token_format: z.string(),
    docs: z.string(),
  }),
  endpoints: z.array(
    z.strictObject({
      operation: z.string(),
      method: z.string(),
      url: z.string(),
      /** The JSON Schema of the request body (under `/schemas/`); `null` for operations without one. */
      request_schema: z.string().nullable(),
      authentication: AuthenticationSchema,
    }),
  ),
});
