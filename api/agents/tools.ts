import { z } from "zod";
import { AgentWaitlistEntrySchema } from "../../src/schemas/requests/agent-waitlist-entry.ts";
import {
  AgentStandingSchema,
  AgentSurveyReceivedSchema,
  AgentWaitlistReceivedSchema,
} from "../../src/schemas/responses/agents.ts";
import { enforceRateLimit } from "../platform/limits/enforce.ts";
import { agentOf, defineTool, READ_ONLY, type Tool } from "../platform/mcp-tool.ts";

const TOKEN_NOTE =
  "Needs the agent token from POST /api/v1/agents/register, sent on the MCP request as Authorization: Bearer <token>.";

/** Tools that act for an agent registration, with the HTTP API's token, scopes and limits. */
export function agentTools(
  surveySchema: z.ZodType<{ survey_version: string; answers: Record<string, unknown> }>,
): Tool[] {
  return [
    defineTool({
      name: "read_agent_standing",
      title: "Read this agent's standing",
      description: `Reads the registration behind the token: trust, scopes, whether it joined the agent waiting list and answered the survey. Use it before joining or answering (each happens once). ${TOKEN_NOTE}`,
      operation: "getAgentStanding",
      scope: null,
      annotations: { ...READ_ONLY, idempotentHint: false },
      input: z.strictObject({}),
      output: AgentStandingSchema,
      run: async (_args, context) => context.services.agents.standing(agentOf(context)),
    }),
    defineTool({
      name: "join_agent_waitlist",
      title: "Join the agent waiting list",
      description: `Puts this agent registration on the agent waiting list, once (a second call is a conflict; do not retry). consent_version must be the current privacy policy version (read_policy privacy). Use it when the operator wants early access. ${TOKEN_NOTE} Scope waitlist:write.`,
      operation: "joinAgentWaitlist",
      scope: "waitlist:write",
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      input: AgentWaitlistEntrySchema,
      output: AgentWaitlistReceivedSchema,
      run: async (entry, context) => {
        const agent = agentOf(context);
        await enforceRateLimit(context.services.limiter, "agent-writes", agent.tokenId);
        return { status: "received" as const, ...(await context.services.agents.joinWaitlist(agent, entry)) };
      },
    }),
    defineTool({
      name: "answer_agent_survey",
      title: "Answer the agent survey",
      description: `Answers the agent survey for this registration, once. survey_version must be the current survey's version (the agents/survey docs page). Use it when the operator agrees to share how the agent works. ${TOKEN_NOTE} Scope survey:write.`,
      operation: "answerAgentSurvey",
      scope: "survey:write",
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      input: surveySchema,
      output: AgentSurveyReceivedSchema,
      run: async (body, context) => {
        const agent = agentOf(context);
        await enforceRateLimit(context.services.limiter, "agent-writes", agent.tokenId);
        const answered = await context.services.agents.answerSurvey(agent, body.survey_version, body.answers);
        return { status: "received" as const, survey_version: body.survey_version, ...answered };
      },
    }),
  ];
}
