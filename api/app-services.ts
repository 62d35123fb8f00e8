import type { z } from "zod";
import type { Content } from "../src/content/model.ts";
import type { Database } from "./db/database.ts";
import type { SecretRing } from "./db/settings.ts";
import type { AgentService } from "./services/agents.ts";
import type { CheckPayments } from "./services/check-payments.ts";
import type { ChecksService } from "./services/checks.ts";
import type { RateLimiter } from "./services/rate-limiter.ts";
import type { ServiceStateMonitor } from "./services/service-state.ts";
import type { CommerceServices } from "./services/store.ts";
import type { TokenOwnerCache } from "./services/token-owner-cache.ts";
import type { WaitlistService } from "./services/waitlist.ts";

/** Everything the routes call; built by `composeServices` (api/compose.ts). */
export interface AppServices {
  content: Content;
  database: Database;
  monitor: ServiceStateMonitor;
  limiter: RateLimiter;
  agents: AgentService;
  tokenOwners: TokenOwnerCache;
  waitlist: WaitlistService;
  checks: ChecksService;
  /** Paying for a report: a client secret for agents, a hosted page for people. */
  checkPayments: CheckPayments;
  /** The agent survey's body schema, generated from content/surveys/agent.yaml. */
  surveySchema: z.ZodType<{ survey_version: string; answers: Record<string, unknown> }>;
  /** Read once at start: after `admin secret rotate`, every instance must restart to use the new key. */
  secrets: SecretRing;
  now: () => Date;
  /** Payments (null without STRIPE_SECRET_KEY), the payment webhook dispatcher, the mail outbox, the store. */
  payments: CommerceServices["payments"];
  webhooks: CommerceServices["webhooks"];
  mail: CommerceServices["mail"];
  store: CommerceServices["store"];
}
