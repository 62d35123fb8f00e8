import { z } from "zod";
import { TimestampSchema } from "../common.ts";

export const TrustSchema = z.enum(["unverified", "verified", "trusted", "suspended"]);

/** `201` from `POST /api/v1/agents/register`. The token is shown this once. */
export const AgentRegisteredSchema = z.strictObject({
  agent_id: z.string(),
  token: z.string().regex(/^agt_[0-9A-Za-z]{38}$/),
  token_type: z.literal("Bearer"),
  scopes: z.array(z.string()),
  trust: TrustSchema,
  created_at: TimestampSchema,
});

/** `201` from `POST /api/v1/agents/waitlist`. */
export const AgentWaitlistReceivedSchema = z.strictObject({
  status: z.literal("received"),
  id: z.uuid(),
  joined_at: TimestampSchema,
});

/** `201` from `POST /api/v1/agents/survey`. */
export const AgentSurveyReceivedSchema = z.strictObject({
  status: z.literal("received"),
  survey_version: z.string(),
  answered_at: TimestampSchema,
});

/** `GET /api/v1/agents/me`: the registration's standing. */
export const AgentStandingSchema = z.strictObject({
  agent_id: z.string(),
  agent_name: z.string(),
  agent_type: z.string(),
  operator_type: z.string(),
  trust: TrustSchema,
  scopes: z.array(z.string()),
  created_at: TimestampSchema,
  waitlist: z.strictObject({ joined: z.boolean(), joined_at: TimestampSchema.nullable() }),
  survey: z.strictObject({
    answered: z.boolean(),
    answered_at: TimestampSchema.nullable(),
    survey_version: z.string().nullable(),
  }),
});
