import type { RequestSchemas } from "../../src/schemas/requests/bodies.ts";
import { AgentSurveyReceivedSchema, AgentWaitlistReceivedSchema } from "../../src/schemas/responses/agents.ts";
import { operationTool, type Tool } from "../platform/mcp-tool.ts";
import type { WaitlistOperations } from "./operations.ts";

const TOKEN_NOTE =
  "Needs the agent token from register_agent (or POST /api/v1/agents/register), sent on the MCP request as Authorization: Bearer <token>.";
const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

/** The agent waiting list and survey as tools: the HTTP operations' work, token, scopes and limits. */
export function waitlistTools(operations: WaitlistOperations, bodySchemas: RequestSchemas): Tool[] {
  return [
    operationTool(operations.joinAgents, bodySchemas, {
      name: "join_agent_waitlist",
      title: "Join the agent waiting list",
      description: `Puts this agent registration on the agent waiting list, once (a second call is a conflict; do not retry). consent_version must be the current privacy policy version (read_policy privacy). Use it when the operator wants early access. ${TOKEN_NOTE} Scope waitlist:write.`,
      annotations: WRITE,
      output: AgentWaitlistReceivedSchema,
    }),
    operationTool(operations.answerSurvey, bodySchemas, {
      name: "answer_agent_survey",
      title: "Answer the agent survey",
      description: `Answers the agent survey for this registration, once. survey_version must be the current survey's version (the agents/survey docs page). Use it when the operator agrees to share how the agent works. ${TOKEN_NOTE} Scope survey:write.`,
      annotations: WRITE,
      output: AgentSurveyReceivedSchema,
    }),
  ];
}
