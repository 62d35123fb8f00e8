import { z } from "zod";
import { boundedArray, EmailSchema, PrivacyVersionSchema, text } from "../common.ts";

export const OperatorTypeSchema = z.enum(["individual", "company", "organisation"]);
export const AgentCapabilitySchema = z.enum(["read", "write", "deploy", "pay"]);

/** `POST /api/v1/agents/waitlist`: exactly the fields and bounds of the API description's table. */
export const AgentWaitlistEntrySchema = z
  .strictObject({
    agent_name: text(1, 200),
    agent_type: text(1, 200),
    operator_type: OperatorTypeSchema,
    principal_contact: EmailSchema.optional(),
    use_cases: boundedArray(text(1, 500), 1, 20, "use cases"),
    capabilities: boundedArray(AgentCapabilitySchema, 0, 4, "capabilities", { unique: true }),
    tools_used: boundedArray(text(1, 200), 0, 50, "tools"),
    /** The current privacy policy's `version`, from `/api/v1/policies/privacy`. */
    consent_version: PrivacyVersionSchema,
  })
  .meta({ title: "Agent waiting-list entry" });
export type AgentWaitlistEntry = z.infer<typeof AgentWaitlistEntrySchema>;
