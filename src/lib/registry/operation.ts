import type { RequestSchemaName } from "../../schemas/requests/bodies.ts";
import type { ServiceSettings } from "../../schemas/service.ts";
import type { Component, SwitchName } from "../switches.ts";

/** Named rate limits; their quotas and windows come from configuration. */
export type RateLimitName =
  | "checks"
  | "monitors"
  | "check-payments"
  | "store-checkout"
  | "session-lookup"
  | "downloads"
  | "agent-writes"
  | "agent-register"
  | "waitlist"
  | "mcp";

export type Authentication = { type: "none" } | { type: "bearer"; scope: string | null };

/** One HTTP operation of the public API: the single registry that capabilities, agents.json, the api-catalog and OpenAPI are generated from. */
export interface Operation {
  /** OpenAPI operationId, verb first. */
  id: string;
  method: "GET" | "POST";
  /** Path template relative to the site, `{name}` for parameters. */
  path: string;
  summary: string;
  /** The capability this operation provides in `/capabilities.json`; absent for plumbing (webhooks). */
  capability?: string;
  authentication: Authentication;
  /** Runtime switch that must be on; off ⇒ 503 and the capability disappears. */
  switch?: SwitchName;
  /** Publish setting (content/service.yaml) that must be on; off ⇒ 404. */
  published?: keyof ServiceSettings["publish"];
  /** Components it needs; any unavailable ⇒ 503 and the capability disappears. */
  requires: readonly Component[];
  /** Name of the request-body schema under `/schemas/`; the server validates the body with exactly it. */
  requestSchema?: RequestSchemaName;
  /** The body may be left out (then `{}` is validated). */
  requestBodyOptional?: boolean;
  rateLimit?: RateLimitName;
  /** Every status this operation can answer. */
  statuses: readonly number[];
  /** The docs page that explains it. */
  docs: string;
  /** Served from the static build (true) or by the server. */
  static: boolean;
  /** Name of the success body's schema under `/schemas/` (a key of `RESPONSE_SCHEMAS`); absent for files and plain text. */
  response?: string;
  /** Media type of the success body when it is not `application/json`. */
  responseType?: string;
  /** Other representations of the success body a client can ask for with `Accept`. */
  alternateTypes?: readonly string[];
}

export const none = { type: "none" } as const;
export const bearer = <Scope extends string | null>(scope: Scope) => ({ type: "bearer", scope }) as const;
