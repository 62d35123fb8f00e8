import { z } from "zod";
import type { RequestSchemas } from "../../src/schemas/requests/bodies.ts";
import { AgentRegisteredSchema, AgentStandingSchema } from "../../src/schemas/responses/agents.ts";
import { operationTool, READ_ONLY, type Tool } from "../platform/mcp-tool.ts";
import type { AgentOperations } from "./operations.ts";

/** Tools for agent registrations: the HTTP operations' work, token, scopes and limits, from the registry. */
export function agentTools(operations: AgentOperations, bodySchemas: RequestSchemas): Tool[] {
  return [
    operationTool(operations.register, bodySchemas, {
      name: "register_agent",
      title: "Register an agent",
      description:
        "Registers this agent for its operator and returns its access token (shown once: keep it) with the scopes waitlist:write and survey:write. Use it first when no token is at hand; send the token as Authorization: Bearer <token> on later MCP requests.",
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      output: AgentRegisteredSchema,
    }),
    operationTool(operations.standing, bodySchemas, {
      name: "read_agent_standing",
      title: "Read this agent's standing",
      description:
        "Reads the registration behind the token: trust, scopes, whether it joined the agent waiting list and answered the survey. Use it before joining or answering (each happens once). Needs the agent token as Authorization: Bearer <token> on the MCP request.",
      annotations: { ...READ_ONLY, idempotentHint: false },
      params: z.strictObject({}),
      output: AgentStandingSchema,
    }),
  ];
}
