import type { H3Event } from "h3";
import type { RateLimiter } from "../limits/rate-limiter.ts";
import { ApiProblem } from "../problem.ts";
import { hashToken, hasValidChecksum, sameHash } from "./agent-token.ts";
import { isOAuthAccessToken } from "./oauth-token.ts";
import { type StandingEpoch, standsAt } from "./standing-epoch.ts";
import type { TokenOwner } from "./token-owner.ts";
import type { TokenOwnerCache } from "./token-owner-cache.ts";

const BEARER = /^Bearer +([^\s]+)\s*$/i;

/**
 * Where a request arrived, as OAuth sees it: the resource OAuth access tokens must have been issued for
 * (their audience, RFC 8707), and its metadata document, which every challenge names (RFC 9728 §5.1).
 * Without one (the public MCP endpoint), only agent tokens are accepted.
 */
export interface BearerResource {
  url: string;
  metadataUrl: string;
  /** What a client should ask for first (the challenge's `scope` when the operation names none). */
  scopes: readonly string[];
}

type ChallengeError = { code: "invalid_token" | "invalid_request" | "insufficient_scope"; description: string };

/**
 * RFC 6750 §3: no error code when no credentials were sent; `invalid_token` when a bad one was;
 * `insufficient_scope` with the scope needed. At a protected resource, every challenge also names its
 * metadata (RFC 9728 §5.1) and the scope to ask for (MCP 2025-11-25, "Scope Selection Strategy").
 */
function challenge(resource: BearerResource | undefined, scope: string | null, error?: ChallengeError): string {
  const params = ['realm="agents"'];
  if (resource) params.push(`resource_metadata="${resource.metadataUrl}"`);
  if (error?.code === "insufficient_scope") params.push('error="insufficient_scope"', `scope="${scope}"`);
  else {
    if (error) params.push(`error="${error.code}"`, `error_description="${error.description.replace(/"/g, "'")}"`);
    if (resource) params.push(`scope="${scope ?? resource.scopes.join(" ")}"`);
  }
  return `Bearer ${params.join(", ")}`;
}

function unauthorized(
  detail: string,
  resource: BearerResource | undefined,
  scope: string | null,
  error?: "invalid_token" | "invalid_request",
): ApiProblem {
  const value = challenge(resource, scope, error ? { code: error, description: detail } : undefined);
  return new ApiProblem("unauthorized", detail, { headers: { "WWW-Authenticate": value } });
}

export interface AgentAuthDeps {
  /** The owner of the agent token with this SHA-256 hash, or null (the agents feature's lookup). */
  findOwner: (hash: Uint8Array) => Promise<TokenOwner | null>;
  /** The owner of the OAuth access token with this SHA-256 hash, or null; without it, OAuth tokens are unknown. */
  findOAuthOwner?: (hash: Uint8Array) => Promise<TokenOwner | null>;
  limiter: RateLimiter;
  cache: TokenOwnerCache;
  /** Whether a cached owner still stands: a revocation anywhere moves it (standing-epoch.ts). */
  epoch: StandingEpoch;
}

/** Why this owner may not act with this scope here, or null when it may. */
function refusal(
  owner: TokenOwner,
  scope: string | null,
  resource: BearerResource | undefined,
): { detail: string; insufficientScope?: true } | null {
  if (owner.revoked) return { detail: "This token has been revoked." };
  if (owner.expiresAt !== undefined && owner.expiresAt <= Date.now()) return { detail: "This token has expired." };
  if (owner.audience !== undefined && owner.audience !== resource?.url)
    return {
      detail: `This token was issued for ${owner.audience}, so it is not accepted here${resource ? ` (${resource.url})` : ""}; ask for one with resource=${resource?.url ?? "this resource"}.`,
    };
  if (owner.agent.trust === "suspended") return { detail: "This agent registration is suspended." };
  if (scope && !owner.scopes.includes(scope))
    return { detail: `This needs a token with the scope ${scope}.`, insufficientScope: true };
  return null;
}

/**
 * The owner of the bearer token in this `Authorization` value when it is already in memory, read
 * no earlier than the standing `epoch` of this turn, and may act with the scope; undefined when
 * finding out needs the database or the answer is a refusal (`authenticateBearer` gives those). No
 * I/O: hot routes answer from it.
 */
export function ownerInMemory(
  header: string | undefined,
  cache: TokenOwnerCache,
  scope: string | null,
  epoch: number,
): TokenOwner | undefined {
  const token = header ? BEARER.exec(header)?.[1] : undefined;
  if (!token) return undefined;
  const owner = cache.get(token);
  // No resource here: an OAuth token's owner is refused (its audience is checked on the app's path).
  return owner && standsAt(owner.standingEpoch, epoch) && !refusal(owner, scope, undefined) ? owner : undefined;
}

/**
 * The agent behind `Authorization: Bearer <token>`, with the scope checked. Unknown, revoked and
 * suspended tokens are 401; a valid token without the scope is 403. Failed presentations count
 * against the caller's address, so guessing tokens runs into a 429.
 */
export async function authenticateAgent(
  event: H3Event,
  deps: AgentAuthDeps,
  address: string,
  scope: string | null,
  resource?: BearerResource,
): Promise<TokenOwner> {
  return authenticateBearer(event.req.headers.get("authorization"), deps, address, scope, TOKEN_SOURCE_HTTP, resource);
}

/**
 * The SHA-256 of the bearer token in this `Authorization` value when it is well formed (its
 * checksum holds), else null: what a token's rate limits are counted on, known before its lookup.
 */
export function presentedTokenHash(header: string | null): Buffer | null {
  const token = header ? BEARER.exec(header)?.[1] : undefined;
  return token && (hasValidChecksum(token) || isOAuthAccessToken(token)) ? hashToken(token) : null;
}

/** The rate-limit subject of a token: its hash, never the token (the counters are stored). */
export function tokenSubject(hash: Uint8Array): string {
  return `token:${Buffer.from(hash).toString("base64url")}`;
}

/** Where an HTTP client gets a token; an MCP client is told its tool instead (api/mcp/routes.ts). */
export const TOKEN_SOURCE_HTTP = "from POST /api/v1/agents/register";

/**
 * The same, from the `Authorization` header's value (MCP tools read it from the transport's request).
 * `tokenSource` ends the 401's sentence "get one …", in the terms of the transport the caller uses.
 */
export async function authenticateBearer(
  header: string | null,
  deps: AgentAuthDeps,
  address: string,
  scope: string | null,
  tokenSource = TOKEN_SOURCE_HTTP,
  resource?: BearerResource,
): Promise<TokenOwner> {
  const fail = (detail: string, error?: "invalid_request") =>
    failedPresentation(deps, address, detail, resource, scope, error);
  if (!header)
    throw unauthorized(
      `Send an agent token as Authorization: Bearer <token>; get one ${tokenSource}.`,
      resource,
      scope,
    );
  const token = BEARER.exec(header)?.[1];
  if (!token) throw await fail("The Authorization header must be: Bearer <token>.", "invalid_request");
  let owner = deps.cache.get(token);
  // A revocation or suspension made anywhere since the owner was read: read it again.
  if (owner && !standsAt(owner.standingEpoch, await deps.epoch.current())) owner = undefined;
  if (!owner) {
    // The checksum rejects typos and random strings without a database lookup (a cached owner's
    // token had a valid one, or it would not have been found). OAuth access tokens carry one too.
    const find = isOAuthAccessToken(token) ? deps.findOAuthOwner : hasValidChecksum(token) ? deps.findOwner : undefined;
    if (!find) throw await fail("This is not a token this service issued.");
    const hash = hashToken(token);
    owner =
      (await deps.epoch.alongside(
        () => find(hash),
        (found) => found?.standingEpoch ?? null,
      )) ?? undefined;
    if (!owner || !sameHash(owner.tokenHash, hash)) throw await fail("This token is not known.");
    deps.cache.set(token, owner);
  }
  const refused = refusal(owner, scope, resource);
  if (refused?.insufficientScope) {
    const description = refused.detail;
    throw new ApiProblem("insufficient-scope", refused.detail, {
      headers: { "WWW-Authenticate": challenge(resource, scope, { code: "insufficient_scope", description }) },
    });
  }
  if (refused) throw await fail(refused.detail);
  return owner;
}

/** A failed presentation counts against the address; past the limit it is a 429, else a 401. */
async function failedPresentation(
  deps: AgentAuthDeps,
  address: string,
  detail: string,
  resource: BearerResource | undefined,
  scope: string | null,
  error: "invalid_token" | "invalid_request" = "invalid_token",
): Promise<ApiProblem> {
  const decision = await deps.limiter.consume("agent-auth-failures", address);
  if (!decision.allowed) {
    return new ApiProblem(
      "rate-limited",
      `Too many failed token presentations; try again in ${decision.resetSeconds} s.`,
      { headers: { "Retry-After": String(decision.resetSeconds) } },
    );
  }
  return unauthorized(detail, resource, scope, error);
}
