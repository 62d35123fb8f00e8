import type { z } from "zod";
import type { Content } from "../src/content/model.ts";
import type { AgentService } from "./agents/service.ts";
import type { CheckPayments } from "./checks/payments.ts";
import type { ChecksService } from "./checks/service.ts";
import type { Database } from "./db/database.ts";
import type { TokenOwnerCache } from "./platform/auth/token-owner-cache.ts";
import type { RateLimiter } from "./platform/limits/rate-limiter.ts";
import type { SecretRing } from "./platform/secret-ring.ts";
import type { ServiceStateMonitor } from "./platform/state/service-state.ts";
import type { CommerceServices } from "./store/services.ts";
import type { WaitlistService } from "./waitlists/service.ts";

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
