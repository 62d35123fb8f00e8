import { defineOperation } from "../platform/operations/definition.ts";
import type { AgentWaitlist } from "./agent-waitlist.ts";
import type { WaitlistService } from "./service.ts";

/** The two waiting lists and the agent survey; the registry says who may call them and with what body. */
export function waitlistOperations(waitlist: WaitlistService, agentWaitlist: AgentWaitlist) {
  return {
    join: defineOperation("joinWaitlist", { run: ({ body }) => waitlist.join(body) }),
    joinAgents: defineOperation("joinAgentWaitlist", {
      async run({ agent, body }) {
        const joined = await agentWaitlist.join(agent, body);
        return { status: "received" as const, id: joined.id, joined_at: joined.joined_at };
      },
    }),
    answerSurvey: defineOperation("answerAgentSurvey", {
      async run({ agent, body }) {
        const answered = await agentWaitlist.answerSurvey(agent, body.survey_version, body.answers);
        return { status: "received" as const, survey_version: body.survey_version, answered_at: answered.answered_at };
      },
    }),
  };
}

export type WaitlistOperations = ReturnType<typeof waitlistOperations>;
