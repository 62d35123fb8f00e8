import { z } from "zod";
import { TimestampSchema } from "../common.ts";

/** `202` from `POST /api/v1/waitlist`, the same whether or not the address was listed. */
export const WaitlistReceivedSchema = z.strictObject({ status: z.literal("received"), legend: z.boolean() });

/** `GET /health`. */
export const HealthSchema = z.strictObject({ status: z.literal("ok") });

export const ComponentHealthSchema = z.enum(["ok", "configured", "unavailable", "not-configured"]);

/** `GET /status.json`. */
export const StatusSchema = z.strictObject({
  status: z.enum(["ok", "degraded"]),
  checked_at: TimestampSchema,
  components: z.strictObject({
    api: z.literal("ok"),
    database: ComponentHealthSchema,
    payments: ComponentHealthSchema,
    mail: ComponentHealthSchema,
    files: ComponentHealthSchema,
  }),
});

/** `GET /api/v1/config`: which forms and features are open, and the policy versions forms must send. */
export const PublicConfigSchema = z.strictObject({
  forms: z.strictObject({
    waitlist: z.boolean(),
    agent_waitlist: z.boolean(),
    agent_survey: z.boolean(),
    agent_register: z.boolean(),
  }),
  features: z.strictObject({
    store: z.boolean(),
    checks: z.boolean(),
    check_payments: z.boolean(),
    credit_packs: z.boolean(),
    mcp: z.boolean(),
  }),
  privacy_version: z.string(),
  legend_terms_version: z.string(),
  checked_at: TimestampSchema,
});
