import { z } from "zod";
import { EmailSchema, PrivacyVersionSchema, text } from "../common.ts";

export const OperatorTypeSchema = z.enum(["individual", "company", "organisation"]);
export const AgentCapabilitySchema = z.enum(["read", "write", "deploy", "pay"]);

/** `POST /api/v1/agents/waitlist`: exactly the fields and bounds of the API description's table. */
export const AgentWaitlistEntrySchema = z
  .strictObject({
    agent_name: text(1, 200),
    agent_type: text(1, 200),
    operator_type: OperatorTypeSchema,
    principal_contact: EmailSchema.optional(),
    use_cases: z.array(text(1, 500)).min(1, "must list at least one use case").max(20, "must list at most 20 use cases"),
    capabilities: z.array(AgentCapabilitySchema).max(4, "must list at most 4 capabilities"),
    tools_used: z.array(text(1, 200)).max(50, "must list at most 50 tools"),
    /** The current privacy policy's `version`, from `/api/v1/policies/privacy`. */
    consent_version: PrivacyVersionSchema,
  })
  .meta({ title: "Agent waiting-list entry" });
export type AgentWaitlistEntry = z.infer<typeof AgentWaitlistEntrySchema>;
