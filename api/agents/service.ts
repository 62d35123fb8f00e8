import { DEFAULT_AGENT_SCOPES } from "../../src/lib/registry.ts";
import type { AgentRegistration } from "../../src/schemas/requests/agent-registration.ts";
import type { Sql } from "../db/sql.ts";
import { generateAgentToken, hashToken, randomBase62 } from "../platform/auth/agent-token.ts";
import type { Agent, TokenOwner } from "../platform/auth/token-owner.ts";
import { insertAgent, insertAgentWithToken, insertToken } from "./sql.ts";

export interface AgentServiceDeps {
  db: () => Sql;
  now: () => Date;
}

export interface IssuedToken {
  token: string;
  tokenId: string;
  scopes: string[];
}

function newToken(scopes: readonly string[], label: string | null, at: string) {
  const token = generateAgentToken();
  return {
    token,
    record: {
      id: `tok_${randomBase62(16)}`,
      hash: hashToken(token),
      hint: token.slice(-4),
      scopes: [...scopes],
      label,
      createdAt: at,
    },
  };
}

export class AgentService {
  /** Owner readings are replaced, never changed, when a standing changes: safe to remember by identity. */
  readonly #standingJson = new WeakMap<TokenOwner, string>();

  private readonly deps: AgentServiceDeps;

  constructor(deps: AgentServiceDeps) {
    this.deps = deps;
  }

  private newAgent(input: AgentRegistration, registeredBy: Agent["registered_by"], at: string): Agent {
    return {
      id: `ag_${randomBase62(22)}`,
      agent_name: input.agent_name,
      agent_type: input.agent_type,
      operator_type: input.operator_type,
      principal_contact: input.principal_contact ?? null,
      trust: "unverified",
      registered_by: registeredBy,
      created_at: at,
    };
  }

  /** Creates the registration and its first token; the token is returned once and never stored. */
  async register(
    input: AgentRegistration,
    registeredBy: "api" | "staff",
    scopes: readonly string[] = DEFAULT_AGENT_SCOPES,
  ): Promise<{ agent: Agent } & IssuedToken> {
    const at = this.deps.now().toISOString();
    const agent = this.newAgent(input, registeredBy, at);
    const { token, record } = newToken(scopes, "registration", at);
    await insertAgentWithToken(this.deps.db(), agent, record);
    return { agent, token, tokenId: record.id, scopes: record.scopes };
  }

  /**
   * A registration made on the OAuth consent page: no agent token, since nobody would see it; the
   * OAuth client acts for it through its grant. Staff can issue it a token later.
   */
  async registerForSignIn(input: AgentRegistration): Promise<Agent> {
    const agent = this.newAgent(input, "api", this.deps.now().toISOString());
    await insertAgent(this.deps.db(), agent);
    return agent;
  }

  /** Another token for an existing agent (staff), e.g. to rotate before revoking the old one. */
  async issueToken(agentId: string, scopes: readonly string[], label: string | null): Promise<IssuedToken> {
    const { token, record } = newToken(scopes, label, this.deps.now().toISOString());
    await insertToken(this.deps.db(), agentId, record);
    return { token, tokenId: record.id, scopes: record.scopes };
  }

  standing(owner: TokenOwner) {
    const { agent } = owner;
    return {
      agent_id: agent.id,
      agent_name: agent.agent_name,
      agent_type: agent.agent_type,
      operator_type: agent.operator_type,
      trust: agent.trust,
      scopes: owner.scopes,
      created_at: agent.created_at,
      waitlist: { joined: owner.waitlistJoinedAt !== null, joined_at: owner.waitlistJoinedAt },
      survey: {
        answered: owner.surveyAnsweredAt !== null,
        answered_at: owner.surveyAnsweredAt,
        survey_version: owner.surveyVersion,
      },
    };
  }

  /** `standing(owner)` as JSON, serialised once per owner reading (it is the busiest read there is). */
  standingJson(owner: TokenOwner): string {
    let json = this.#standingJson.get(owner);
    if (json === undefined) {
      json = JSON.stringify(this.standing(owner));
      this.#standingJson.set(owner, json);
    }
    return json;
  }
}
