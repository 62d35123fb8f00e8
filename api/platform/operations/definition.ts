import type { BodyOf, IsBearer, OperationId } from "../../../src/lib/registry.ts";
import type { TokenOwner } from "../auth/token-owner.ts";
import type { LimitName } from "../limits/rate-limiter.ts";

/** What one call of an operation knows, whether it came over HTTP or as an MCP tool call. */
export interface OperationCall<Id extends OperationId, Found = undefined> {
  id: Id;
  /** The request body, validated with the schema the registry names (`undefined` when it takes none). */
  body: BodyOf<Id>;
  /** Path parameters by their registry names (`{id}` → `params.id`). */
  params: Readonly<Record<string, string>>;
  /** The registration behind the bearer token, for operations that need one. */
  agent: IsBearer<Id> extends true ? TokenOwner : null;
  /** The client's address (rate limits count against it). */
  address: string;
  headers: Headers;
  /** What `find` resolved. */
  found: Found;
  /**
   * Counts the request against one more named limit (e.g. the free checks a day, charged only once a
   * scan really starts): 429 over it; its RateLimit headers join the response's.
   */
  charge(limit: LimitName): Promise<void>;
}

export type FindCall<Id extends OperationId> = Omit<OperationCall<Id>, "found" | "body" | "charge">;

/**
 * The work of one registry operation, apart from how it arrived. Authentication, rate limits, switches,
 * components and the body schema all come from the registry (src/lib/registry.ts), so the HTTP route and
 * the MCP tool of an operation cannot disagree about them.
 */
export interface OperationDefinition<Id extends OperationId, Found = undefined, Result = unknown> {
  id: Id;
  /**
   * Resolves the resource the path names, throwing a 404 problem when there is none; runs before the
   * components are checked, so a missing thing is 404 even while the service behind it is down.
   */
  find?: (call: FindCall<Id>) => Promise<Found>;
  run(call: OperationCall<Id, Found>): Promise<Result>;
}

export function defineOperation<Id extends OperationId, Found = undefined, Result = unknown>(
  id: Id,
  spec: Omit<OperationDefinition<Id, Found, Result>, "id">,
): OperationDefinition<Id, Found, Result> {
  return { id, ...spec };
}
