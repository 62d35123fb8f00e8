import type { z } from "zod";
import type { McpRequestSchema } from "../mcp.ts";
import type { AgentRegistration } from "./agent-registration.ts";
import type { AgentWaitlistEntry } from "./agent-waitlist-entry.ts";
import type { CheckCheckout, CheckInput, CheckRedeem } from "./checks.ts";
import type { AgentMonitorInput, MonitorInput, MonitorLink } from "./monitors.ts";
import type { StoreCheckout } from "./store-checkout.ts";
import type { WaitlistSignup } from "./waitlist.ts";

/** A survey answer: its shape past these two fields comes from content/surveys/agent.yaml at start. */
export interface AgentSurveyAnswer {
  survey_version: string;
  answers: Record<string, unknown>;
}

/**
 * Every request body by the name it is published under (`/schemas/<name>.json`). The registry names an
 * operation's body by these keys, so a route's `body` is typed by the operation it serves.
 */
export interface RequestBodies {
  "agent-waitlist-entry": AgentWaitlistEntry;
  "agent-registration": AgentRegistration;
  "agent-survey": AgentSurveyAnswer;
  "check-input": CheckInput;
  "check-checkout": CheckCheckout;
  "check-redeem": CheckRedeem;
  "monitor-input": MonitorInput;
  "agent-monitor-input": AgentMonitorInput;
  "monitor-link": MonitorLink;
  "store-checkout": StoreCheckout;
  waitlist: WaitlistSignup;
  "mcp-request": z.output<typeof McpRequestSchema>;
}

export type RequestSchemaName = keyof RequestBodies;

/** The validating schema of each body; `requestSchemas(content)` builds it (the survey's comes from content). */
export type RequestSchemas = { [Name in RequestSchemaName]: z.ZodType<RequestBodies[Name]> };
