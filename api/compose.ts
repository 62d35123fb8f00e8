import { getContent } from "../src/content/load-content.ts";
import { withSiteUrls } from "../src/content/site-placeholders.ts";
import { currentPolicyVersions } from "../src/lib/discovery/documents.ts";
import { buildAgentSurveySchema } from "../src/schemas/requests/agent-survey.ts";
import { AgentService } from "./agents/service.ts";
import type { AppServices } from "./app-services.ts";
import type { ChecksService } from "./checks/service.ts";
import { createCheckServices } from "./checks/services.ts";
import { type Config, ConfigError } from "./config.ts";
import { Database } from "./db/database.ts";
import { migrate } from "./db/migrate.ts";
import { TokenOwnerCache } from "./platform/auth/token-owner-cache.ts";
import {
  DatabaseRateLimitStore,
  MemoryRateLimitStore,
  RateLimiter,
  ratePolicies,
} from "./platform/limits/rate-limiter.ts";
import type { Logger } from "./platform/log.ts";
import { loadSecretRing } from "./platform/secret-ring.ts";
import { ServiceStateMonitor } from "./platform/state/service-state.ts";
import { createCommerceServices } from "./store/services.ts";
import { WaitlistService } from "./waitlists/service.ts";

export interface ComposeOptions {
  /** DNS for the readiness checker (tests make fixture names resolve). */
  checkerLookup?: ConstructorParameters<typeof ChecksService>[0]["lookup"];
  now?: () => Date;
  /** How long a reading of switches and component health, and a token's owner, stay fresh (default 1 s). */
  stateTtlMs?: number;
  /** Checkpoint an embedded database file from a worker thread this often (the server does; tests need not). */
  checkpointEveryMs?: number;
}

/**
 * Opens the database (applying migrations), loads the content and builds every service. The one
 * place with start-up I/O besides the server itself; tests use it too, against a temp file.
 */
export async function composeServices(config: Config, log: Logger, options: ComposeOptions = {}): Promise<AppServices> {
  const now = options.now ?? (() => new Date());
  const content = withSiteUrls(getContent(config.root), config);
  let policies: ReturnType<typeof ratePolicies>;
  try {
    // The free checks a day come from content/pricing.yaml unless RATE_LIMITS says otherwise.
    policies = ratePolicies({
      "checks-daily": { limit: content.pricing.checks.free_checks_per_day, windowSeconds: 86_400 },
      ...config.rateLimit.overrides,
    });
  } catch (error) {
    throw new ConfigError(
      `Invalid configuration; fix these environment variables:\n  RATE_LIMITS: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const versions = currentPolicyVersions(content);
  const database = new Database(config.database);
  await database.configure(options.checkpointEveryMs);
  const applied = await migrate(database.client);
  if (applied.length > 0) log.info({ applied }, "database migrations applied");
  const secrets = await loadSecretRing(database, config, (message) => log.warn(message));
  const db = () => database.client;
  const monitor = new ServiceStateMonitor({
    database,
    onDatabaseReopened: async () => {
      await migrate(database.client);
      log.warn("the database file was replaced or came back; reopened it");
    },
    paymentsConfigured: () => Boolean(config.stripe.secretKey),
    mailConfigured: () => Boolean(config.mail.smtpUrl),
    filesDir: config.privateFilesDir,
    now,
    ttlMs: options.stateTtlMs ?? 1_000,
  });
  const tokenOwners = new TokenOwnerCache(options.stateTtlMs ?? 1_000, () => now().getTime());
  const commerce = createCommerceServices({ config, content, db, now, secrets, log });
  const store = config.rateLimit.store === "database" ? new DatabaseRateLimitStore(db) : new MemoryRateLimitStore();
  return {
    content,
    database,
    monitor,
    limiter: new RateLimiter(store, policies, () => now().getTime()),
    agents: new AgentService({
      db,
      now,
      privacyVersion: versions.privacy_version,
      onStandingChanged: (agentId) => tokenOwners.forgetAgent(agentId),
    }),
    tokenOwners,
    waitlist: new WaitlistService({
      db,
      now,
      privacyVersion: versions.privacy_version,
      legendTermsVersion: versions.legend_terms_version,
    }),
    surveySchema: buildAgentSurveySchema(content.survey),
    secrets,
    now,
    ...commerce,
    ...createCheckServices({
      config,
      content,
      db,
      now,
      secrets,
      monitor,
      commerce,
      ...(options.checkerLookup ? { lookup: options.checkerLookup } : {}),
    }),
  };
}
