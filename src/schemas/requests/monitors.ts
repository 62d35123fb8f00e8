import { z } from "zod";
import { EmailSchema, LINK_EXPIRY_PATTERN, text } from "../common.ts";
import { CheckProfileSchema } from "./checks.ts";

/** How often a watched site is checked again. */
export const MonitorFrequencySchema = z.enum(["daily", "weekly"]);
export type MonitorFrequency = z.infer<typeof MonitorFrequencySchema>;

const target = {
  /** A hostname (`example.com`, IDN allowed), checked over https; or a URL, whose origin is checked. */
  domain: text(1, 2048),
  /** `daily` or `weekly` (the default). */
  frequency: MonitorFrequencySchema.optional(),
  /** Overrides the inferred profile on every run, as for a check: one profile or several. */
  profile: z.union([CheckProfileSchema, z.array(CheckProfileSchema).min(1).max(5)]).optional(),
};

/** `POST /api/v1/monitors`: watch a site; nothing is scheduled until the address is confirmed. */
export const MonitorInputSchema = z
  .strictObject({
    ...target,
    /** Where the confirmation and every alert go; the monitor starts once its link is followed. */
    email: EmailSchema,
  })
  .meta({ title: "Watch a site" });
export type MonitorInput = z.infer<typeof MonitorInputSchema>;

/** `POST /api/v1/agents/monitors`: an agent watches a site for itself (token scope `monitors:write`); no e-mail. */
export const AgentMonitorInputSchema = z.strictObject(target).meta({ title: "Watch a site for an agent" });
export type AgentMonitorInput = z.infer<typeof AgentMonitorInputSchema>;

/** The signed token of an e-mailed link: `v1.<monitor>.<expiry>.<signature>`. */
export const MONITOR_LINK_PATTERN = `^v1\\.[0-9a-f-]{36}\\.${LINK_EXPIRY_PATTERN}\\.[A-Za-z0-9_-]{43}$`;

/** `POST /api/v1/monitors/confirm` and `POST /api/v1/monitors/unsubscribe`: the token of the e-mailed link. */
export const MonitorLinkSchema = z
  .strictObject({
    /** The token at the end of the e-mailed link. */
    token: z.string().max(200).regex(new RegExp(MONITOR_LINK_PATTERN), "must be the token of an e-mailed monitor link"),
  })
  .meta({ title: "Monitor link" });
export type MonitorLink = z.infer<typeof MonitorLinkSchema>;
