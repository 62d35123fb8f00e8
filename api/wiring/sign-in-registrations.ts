import { openSwitches } from "../../src/lib/discovery/state.ts";
import { findAgent } from "../agents/sql.ts";
import type { Registrations } from "../oauth/consent/consent-service.ts";
import { hasValidChecksum } from "../platform/auth/agent-token.ts";
import { authenticateBearer } from "../platform/auth/bearer.ts";
import { invokeOperation } from "../platform/operations/prepare-call.ts";
import { ApiProblem } from "../platform/problem.ts";
import type { AppServices } from "./app-services.ts";
import { asForm, parseForm } from "./page-services.ts";

/**
 * What the OAuth consent page may do with registrations (api/oauth/consent/consent-service.ts): the
 * agents feature's, under the same rules as the API. Registering is the `registerAgent` operation
 * (its switch, its rate limit, its body schema), minus the agent token nobody would see; proving a
 * registration is presenting its agent token, checked like any request's (failures count against
 * the address, so guessing runs into a 429).
 */
export function signInRegistrations(
  services: Pick<AppServices, "operations" | "operationDeps" | "monitor" | "content" | "database">,
): Registrations {
  const { operations, operationDeps } = services;
  return {
    register: (fields, address) =>
      asForm(async () => {
        const agent = await invokeOperation(
          operations.agents.registerForSignIn,
          { address, headers: new Headers(), params: {}, readBody: async (schema) => parseForm(schema, fields) },
          operationDeps,
        );
        return { agentId: agent.id, agentName: agent.agent_name };
      }),
    prove: (token, address) =>
      asForm(async () => {
        // Only an agent token proves a registration: an OAuth token was itself given by a consent like this one.
        if (!hasValidChecksum(token))
          throw new ApiProblem(
            "unauthorized",
            "That is not an agent token: they start with agt_ and are 42 characters long.",
          );
        const owner = await authenticateBearer(`Bearer ${token}`, operationDeps.auth, address, null);
        return { agentId: owner.agent.id, agentName: owner.agent.agent_name, scopes: owner.scopes };
      }),
    async standing(agentId) {
      const agent = await findAgent(services.database.client, agentId);
      return agent && agent.trust !== "suspended" ? { agentId: agent.id, agentName: agent.agent_name } : null;
    },
    async registrationOpen() {
      return openSwitches(await services.monitor.current(), services.content.service).agent_register;
    },
  };
}
