import { z } from "zod";
import { EmailSchema, text } from "../common.ts";
import { OperatorTypeSchema } from "./agent-waitlist-entry.ts";

/** `POST /api/v1/agents/register`: who the agent is; the reply carries its token, once. */
export const AgentRegistrationSchema = z
  .strictObject({
    agent_name: text(1, 200),
    agent_type: text(1, 200),
    operator_type: OperatorTypeSchema,
    principal_contact: EmailSchema.optional(),
  })
  .meta({ title: "Agent registration" });
export type AgentRegistration = z.infer<typeof AgentRegistrationSchema>;
