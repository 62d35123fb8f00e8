import type { RequestBodies, RequestSchemaName } from "../schemas/requests/bodies.ts";
import { AGENT_OPERATIONS } from "./registry/agents.ts";
import { CHECK_OPERATIONS } from "./registry/checks.ts";
import { CONTENT_OPERATIONS } from "./registry/content.ts";
import { DISCOVERY_OPERATIONS } from "./registry/discovery.ts";
import { MONITOR_OPERATIONS } from "./registry/monitors.ts";
import type { Operation } from "./registry/operation.ts";
import { SERVICE_OPERATIONS } from "./registry/service.ts";
import { STORE_OPERATIONS } from "./registry/store.ts";

export type { Authentication, Operation, RateLimitName } from "./registry/operation.ts";

/**
 * Every operation of the public API, in the order OpenAPI and the discovery documents list them: the
 * single registry that capabilities, agents.json, the api-catalog, OpenAPI, the HTTP routes and the MCP
 * tools are all read from. One file per area under registry/.
 */
const REGISTERED = [
  ...CONTENT_OPERATIONS,
  ...STORE_OPERATIONS,
  ...CHECK_OPERATIONS,
  ...MONITOR_OPERATIONS,
  ...AGENT_OPERATIONS,
  ...SERVICE_OPERATIONS,
  ...DISCOVERY_OPERATIONS,
] as const;

/** Every operation, in the order OpenAPI and the discovery documents list them. */
export const OPERATIONS: readonly Operation[] = REGISTERED;

type Registered = (typeof REGISTERED)[number];
export type OperationId = Registered["id"];
/** The registry entry of one operation, with its literal types (method, authentication, body schema). */
export type OperationOf<Id extends OperationId> = Extract<Registered, { id: Id }>;
/** The parsed request body of an operation, or `undefined` when it takes none. */
export type BodyOf<Id extends OperationId> =
  OperationOf<Id> extends { requestSchema: infer Name extends RequestSchemaName } ? RequestBodies[Name] : undefined;
/** Whether an operation acts for an agent registration (a bearer token). */
export type IsBearer<Id extends OperationId> = OperationOf<Id>["authentication"] extends { type: "bearer" }
  ? true
  : false;

const BY_ID = new Map<string, Operation>(OPERATIONS.map((operation) => [operation.id, operation]));

export function findOperation(id: OperationId): Operation {
  const operation = BY_ID.get(id);
  if (!operation) throw new Error(`Unknown operation ${id}`);
  return operation;
}

/** The scopes a self-registered agent gets; staff can issue tokens with others (monitors:write, say). */
export const DEFAULT_AGENT_SCOPES = ["waitlist:write", "survey:write"] as const;

/** Every scope some operation requires: the vocabulary tokens are granted from. */
export const AGENT_SCOPES: readonly string[] = [
  ...new Set(
    OPERATIONS.flatMap((operation) =>
      operation.authentication.type === "bearer" && operation.authentication.scope
        ? [operation.authentication.scope]
        : [],
    ),
  ),
];
