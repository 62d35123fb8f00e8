import type { H3Event } from "h3";
import type { Sql } from "../db/sql.ts";
import { findTokenOwner, type TokenOwner } from "../db/agents.ts";
import { hashToken, hasValidChecksum, sameHash } from "../auth/agent-token.ts";
import type { RateLimiter } from "../services/rate-limiter.ts";
import type { TokenOwnerCache } from "../services/token-owner-cache.ts";
import { ApiProblem } from "./problem.ts";

const REALM = 'Bearer realm="agents"';

function unauthorized(detail: string, error?: "invalid_token" | "invalid_request"): ApiProblem {
  // RFC 6750 §3: no error code when no credentials were sent; `invalid_token` when a bad one was.
  const challenge = error ? `${REALM}, error="${error}", error_description="${detail.replace(/"/g, "'")}"` : REALM;
  return new ApiProblem("unauthorized", detail, { headers: { "WWW-Authenticate": challenge } });
}

export interface AgentAuthDeps {
  db: () => Sql;
  limiter: RateLimiter;
  cache: TokenOwnerCache;
}

/**
 * The agent behind `Authorization: Bearer <token>`, with the scope checked. Unknown, revoked and
 * suspended tokens are 401; a valid token without the scope is 403. Failed presentations count
 * against the caller's address, so guessing tokens runs into a 429.
 */
export async function authenticateAgent(event: H3Event, deps: AgentAuthDeps, address: string, scope: string | null): Promise<TokenOwner> {
  return authenticateBearer(event.req.headers.get("authorization"), deps, address, scope);
}

/** The same, from the `Authorization` header's value (MCP tools read it from the transport's request). */
export async function authenticateBearer(header: string | null, deps: AgentAuthDeps, address: string, scope: string | null): Promise<TokenOwner> {
  if (!header) throw unauthorized("Send an agent token as Authorization: Bearer <token>; get one from POST /api/v1/agents/register.");
  const match = /^Bearer +([^\s]+)\s*$/i.exec(header);
  const fail = async (detail: string, error: "invalid_token" | "invalid_request" = "invalid_token") => {
    const decision = await deps.limiter.consume("agent-auth-failures", address);
    if (!decision.allowed) {
      throw new ApiProblem("rate-limited", `Too many failed token presentations; try again in ${decision.resetSeconds} s.`, { headers: { "Retry-After": String(decision.resetSeconds) } });
    }
    return unauthorized(detail, error);
  };
  if (!match?.[1]) throw await fail("The Authorization header must be: Bearer <token>.", "invalid_request");
  const token = match[1];
  // The checksum rejects typos and random strings without a database lookup.
  if (!hasValidChecksum(token)) throw await fail("This is not an agent token.");
  const hash = hashToken(token);
  const key = hash.toString("base64");
  let owner = deps.cache.get(key);
  if (!owner) {
    owner = (await findTokenOwner(deps.db(), hash)) ?? undefined;
    if (owner) deps.cache.set(key, owner);
  }
  if (!owner || !sameHash(owner.tokenHash, hash)) throw await fail("This token is not known.");
  if (owner.revoked) throw await fail("This token has been revoked.");
  if (owner.agent.trust === "suspended") throw await fail("This agent registration is suspended.");
  if (scope && !owner.scopes.includes(scope)) {
    throw new ApiProblem("insufficient-scope", `This needs a token with the scope ${scope}.`, {
      headers: { "WWW-Authenticate": `${REALM}, error="insufficient_scope", scope="${scope}"` },
    });
  }
  return owner;
}
