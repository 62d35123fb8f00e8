import type { z } from "zod";
import { findOperation, type OperationId } from "../../../src/lib/registry.ts";
import type { RequestSchemas } from "../../../src/schemas/requests/bodies.ts";
import type { ServiceSettings } from "../../../src/schemas/service.ts";
import { isUnavailableError } from "../../db/database.ts";
import {
  type AgentAuthDeps,
  authenticateBearer,
  type BearerResource,
  presentedTokenHash,
  tokenSubject,
} from "../auth/bearer.ts";
import { refuseUnavailable } from "../availability.ts";
import { LimitCounter } from "../limits/enforce.ts";
import type { RateLimiter } from "../limits/rate-limiter.ts";
import { ApiProblem } from "../problem.ts";
import type { ServiceStateMonitor } from "../state/service-state.ts";
import type { OperationCall, OperationDefinition } from "./definition.ts";

/** What every operation's pipeline needs, whichever transport carried the call. */
export interface OperationDeps {
  limiter: RateLimiter;
  monitor: ServiceStateMonitor;
  service: ServiceSettings;
  auth: AgentAuthDeps;
  bodySchemas: RequestSchemas;
}

/** Where a call came from: HTTP reads a JSON body, MCP passes the tool's arguments. */
export interface CallSource {
  address: string;
  headers: Headers;
  params: Readonly<Record<string, string>>;
  /** The body validated with `schema` (a 422 problem listing every violation when it is not). */
  readBody(schema: z.ZodType, optional: boolean): Promise<unknown>;
  /** Told the RateLimit headers each time a limit is counted. */
  onLimits?: (headers: Record<string, string>) => void;
  /** How a caller without a token gets one, in its transport's terms (bearer.ts's TOKEN_SOURCE_HTTP when absent). */
  tokenSource?: string;
  /** The protected resource the call arrived at: OAuth tokens must have been issued for it (none: agent tokens only). */
  resource?: BearerResource;
}

/**
 * The steps every operation takes before its work, in the order a client learns of them: the token
 * (401/403), the registry's rate limit for the token or the address (429; every later answer carries
 * the RateLimit headers), published and switched on (404/503), the addressed resource (404), the
 * components it needs (503), then the body (415/413/400/422).
 */
async function prepareCall<Id extends OperationId, Found>(
  definition: Pick<OperationDefinition<Id, Found, unknown>, "id" | "find">,
  source: CallSource,
  deps: OperationDeps,
  limits: LimitCounter,
): Promise<OperationCall<Id, Found>> {
  const operation = findOperation(definition.id);
  const { authentication } = operation;
  const limit = operation.rateLimit;
  const header = source.headers.get("authorization");
  // A token's count is keyed by its hash, known before its owner is read: the two travel to the
  // database together (one round trip), and the count is applied only once the token is accepted,
  // so a 401 or 403 still comes first.
  const presented = authentication.type === "bearer" && limit ? presentedTokenHash(header) : null;
  const begun = limit && presented ? limits.begin(limit, tokenSubject(presented)) : undefined;
  const agent =
    authentication.type === "bearer"
      ? await authenticateBearer(
          header,
          deps.auth,
          source.address,
          authentication.scope,
          source.tokenSource,
          source.resource,
        )
      : null;
  const subject = agent ? tokenSubject(agent.tokenHash) : source.address;
  if (limit) await limits.count(limit, subject, begun);
  // Liveness and the like depend on nothing: they never wait for a reading of the state.
  const gated = operation.switch !== undefined || operation.published !== undefined || operation.requires.length > 0;
  const state = gated ? await deps.monitor.current() : null;
  if (state) refuseUnavailable(operation, state, deps.service, { components: false });
  // The registry's literal types say which operations carry a token: the runtime check above matches them.
  const known = { id: definition.id, params: source.params, agent, address: source.address, headers: source.headers };
  const typed = known as Omit<OperationCall<Id, Found>, "found" | "body" | "charge">;
  const found = definition.find ? await definition.find(typed) : (undefined as Found);
  if (state) refuseUnavailable(operation, state, deps.service, { components: true });
  const schema = operation.requestSchema ? deps.bodySchemas[operation.requestSchema] : undefined;
  const body = schema ? await source.readBody(schema, operation.requestBodyOptional ?? false) : undefined;
  return {
    ...typed,
    // Validated with the schema the registry names for this operation, which is what BodyOf<Id> reads.
    body: body as OperationCall<Id, Found>["body"],
    found,
    charge: async (limit) => void (await limits.count(limit, subject)),
  };
}

/** The service's own trouble (a component down, a form closed): nothing the caller should pay for. */
function refusedByService(error: unknown): boolean {
  return (error instanceof ApiProblem && error.status === 503) || isUnavailableError(error);
}

/**
 * Prepares and runs a call, the one path for an HTTP route, an MCP tool and a page form. A call the
 * service refuses with a 503 gives back the rate-limit counts it took, so retrying through an outage
 * does not lock a client out once the service is back.
 */
export async function performOperation<Id extends OperationId, Found, Result>(
  definition: OperationDefinition<Id, Found, Result>,
  source: CallSource,
  deps: OperationDeps,
): Promise<{ call: OperationCall<Id, Found>; result: Result }> {
  const limits = new LimitCounter(deps.limiter, source.onLimits);
  try {
    const call = await prepareCall(definition, source, deps, limits);
    return { call, result: await definition.run(call) };
  } catch (error) {
    if (refusedByService(error)) await limits.refund().catch(() => undefined);
    throw error;
  }
}

/** Prepares and runs a call: what an MCP tool or a page form does with an operation. */
export async function invokeOperation<Id extends OperationId, Found, Result>(
  definition: OperationDefinition<Id, Found, Result>,
  source: CallSource,
  deps: OperationDeps,
): Promise<Result> {
  return (await performOperation(definition, source, deps)).result;
}
