import { defineOperation } from "../platform/operations/definition.ts";
import type { AgentService } from "./service.ts";

/** The agent registration operations' work; the registry says who may call them, how often, and with what body. */
export function agentOperations(agents: AgentService) {
  return {
    register: defineOperation("registerAgent", {
      async run({ body }) {
        const { agent, token, scopes } = await agents.register(body, "api");
        return {
          agent_id: agent.id,
          token,
          token_type: "Bearer" as const,
          scopes,
          trust: agent.trust,
          created_at: agent.created_at,
        };
      },
    }),
    /** The same registration, under the same rules, from the OAuth consent page: no agent token is made. */
    registerForSignIn: defineOperation("registerAgent", {
      run: async ({ body }) => agents.registerForSignIn(body),
    }),
    standing: defineOperation("getAgentStanding", {
      run: async ({ agent }) => agents.standing(agent),
    }),
  };
}

export type AgentOperations = ReturnType<typeof agentOperations>;
