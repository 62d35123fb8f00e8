import type { Content } from "../../src/content/model.ts";
import type { AgentOperations } from "../agents/operations.ts";
import type { AgentService } from "../agents/service.ts";
import type { CheckOperations } from "../checks/operations.ts";
import type { CheckServices } from "../checks/services.ts";
import type { Database } from "../db/database.ts";
import type { MailOutbox } from "../mail/outbox.ts";
import type { MonitorOperations } from "../monitors/operations.ts";
import type { MonitorServices } from "../monitors/services.ts";
import type { PaymentsGateway } from "../payments/stripe-client.ts";
import type { PaymentWebhooks } from "../payments/webhooks.ts";
import type { StandingEpoch } from "../platform/auth/standing-epoch.ts";
import type { TokenOwnerCache } from "../platform/auth/token-owner-cache.ts";
import type { LookupKeys } from "../platform/credentials/lookup-keys.ts";
import type { RateLimiter } from "../platform/limits/rate-limiter.ts";
import type { OperationDeps } from "../platform/operations/prepare-call.ts";
import type { SecretRing } from "../platform/secret-ring.ts";
import type { SigningKeyRing } from "../platform/signing/signing-keys.ts";
import type { ServiceStateMonitor } from "../platform/state/service-state.ts";
import type { StoreOperations } from "../store/operations.ts";
import type { StoreServices } from "../store/services.ts";
import type { WaitlistOperations } from "../waitlists/operations.ts";
import type { WaitlistService } from "../waitlists/service.ts";
import type { OAuthServices } from "./oauth-services.ts";

/** Every service and operation of the running app; built by `composeServices` (api/wiring/compose.ts). */
export interface AppServices extends CheckServices, MonitorServices {
  content: Content;
  database: Database;
  monitor: ServiceStateMonitor;
  limiter: RateLimiter;
  agents: AgentService;
  tokenOwners: TokenOwnerCache;
  /** Whether a cached token owner still stands, read once per turn of the event loop. */
  standingEpoch: StandingEpoch;
  waitlist: WaitlistService;
  /** Read once at start: after `admin secret rotate`, every instance must restart to use the new key. */
  secrets: SecretRing;
  /** The crawler's Web Bot Auth keys, read once at start; the key directory publishes them all. */
  signingKeys: SigningKeyRing;
  /** Keyed hashes of stored credentials (session ids, report ids) and seals for queued e-mails. */
  keys: LookupKeys;
  now: () => Date;
  /** `null` without STRIPE_SECRET_KEY. */
  payments: PaymentsGateway | null;
  webhooks: PaymentWebhooks;
  mail: MailOutbox;
  store: StoreServices;
  /** The authorization server MCP clients sign in with, and its consent page. */
  oauth: OAuthServices;
  /** Each feature's operations: the work the HTTP routes, MCP tools and page forms share. */
  operations: {
    agents: AgentOperations;
    checks: CheckOperations;
    monitors: MonitorOperations;
    store: StoreOperations;
    waitlists: WaitlistOperations;
  };
  /** What every operation's pipeline needs (token lookup, limits, state, body schemas). */
  operationDeps: OperationDeps;
}
