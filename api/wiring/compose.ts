import { getContent } from "../../src/content/load-content.ts";
import type { Content } from "../../src/content/model.ts";
import { withSiteUrls } from "../../src/content/site-placeholders.ts";
import { requestSchemas } from "../../src/lib/json-schemas.ts";
import { agentOperations } from "../agents/operations.ts";
import { AgentService } from "../agents/service.ts";
import { findOAuthTokenOwner, findTokenOwner, readStandingEpoch } from "../agents/sql.ts";
import { checkOperations } from "../checks/operations.ts";
import type { ChecksService } from "../checks/service.ts";
import { checkMailDeps, checkWebhooks, createCheckServices } from "../checks/services.ts";
import { type Config, ConfigError } from "../config.ts";
import { Database } from "../db/database.ts";
import { migrate } from "../db/migrate.ts";
import type { Sql } from "../db/sql.ts";
import { MailOutbox } from "../mail/outbox.ts";
import { createSmtpTransport } from "../mail/transport.ts";
import { monitorOperations } from "../monitors/operations.ts";
import { createMonitorServices, monitorMailDeps } from "../monitors/services.ts";
import { paymentsGatewayFor } from "../payments/stripe-client.ts";
import { PaymentWebhooks } from "../payments/webhooks.ts";
import { hashToken } from "../platform/auth/agent-token.ts";
import { isOAuthAccessToken } from "../platform/auth/oauth-token.ts";
import { StandingEpoch } from "../platform/auth/standing-epoch.ts";
import { TokenOwnerCache } from "../platform/auth/token-owner-cache.ts";
import { type LookupKeys, loadLookupKeys } from "../platform/credentials/lookup-keys.ts";
import {
  DatabaseRateLimitStore,
  MemoryRateLimitStore,
  RateLimiter,
  ratePolicies,
} from "../platform/limits/rate-limiter.ts";
import type { Logger } from "../platform/log.ts";
import { loadSecretRing, type SecretRing } from "../platform/secret-ring.ts";
import { loadSigningKeys } from "../platform/signing/signing-keys.ts";
import { ServiceStateMonitor } from "../platform/state/service-state.ts";
import { storeOperations } from "../store/operations.ts";
import { createStoreServices, type StoreDeps, storeMailDeps, storeWebhooks } from "../store/services.ts";
import { AgentWaitlist } from "../waitlists/agent-waitlist.ts";
import { waitlistOperations } from "../waitlists/operations.ts";
import { WaitlistService } from "../waitlists/service.ts";
import type { AppServices } from "./app-services.ts";
import { rewriteLegacyCredentials } from "./credential-rewrite.ts";
import { mailTemplates } from "./mail-templates.ts";
import { composeOAuth } from "./oauth-services.ts";
import { signInRegistrations } from "./sign-in-registrations.ts";
import { webhookTable } from "./webhook-table.ts";

export interface ComposeOptions {
  /** DNS for the readiness checker (tests make fixture names resolve). */
  checkerLookup?: ConstructorParameters<typeof ChecksService>[0]["lookup"];
  now?: () => Date;
  /** How long a reading of switches and component health, and a token's owner, stay fresh (default 1 s; TOKEN_CACHE_MS for the owner). */
  stateTtlMs?: number;
  /** Checkpoint an embedded database file from a worker thread this often (the server does; tests need not). */
  checkpointEveryMs?: number;
  /** DNS for the authorization server's client ID metadata documents (tests make a name resolve privately). */
  clientDocumentLookup?: ConstructorParameters<typeof ChecksService>[0]["lookup"];
}

interface CommerceDeps {
  config: Config;
  content: Content;
  db: () => Sql;
  now: () => Date;
  secrets: SecretRing;
  keys: LookupKeys;
  log: Logger;
}

/**
 * Payments, the store and the mail outbox with every feature's templates: what the server runs and what
 * the staff CLI needs to show, send and resend mail (scripts/admin/commerce.ts).
 */
export function composeCommerce({ config, content, db, now, secrets, keys, log }: CommerceDeps) {
  const payments = paymentsGatewayFor(config.stripe, log);
  const storeDeps: StoreDeps = { config, content, db, now, secrets, keys, log, payments };
  const store = createStoreServices(storeDeps);
  const mail = new MailOutbox({
    db,
    now,
    from: config.mail.from,
    host: new URL(config.siteUrl).hostname,
    transport: config.mail.smtpUrl ? createSmtpTransport(config.mail.smtpUrl) : null,
    log,
    templates: mailTemplates({
      store: storeMailDeps(store, storeDeps),
      checks: checkMailDeps(config, content, db, secrets, keys),
      monitors: monitorMailDeps(config, content, db, secrets, keys),
    }),
  });
  return { payments, store, storeDeps, mail };
}

function rateLimiterFor(
  config: Config,
  content: Content,
  db: () => Sql,
  now: () => Date,
  secrets: SecretRing,
): RateLimiter {
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
  const store =
    config.rateLimit.store === "database"
      ? new DatabaseRateLimitStore(db, secrets.current)
      : new MemoryRateLimitStore();
  return new RateLimiter(store, policies, () => now().getTime());
}

/** Says what migration 0005's second step rewrote, when it rewrote anything. */
async function logRewrite(log: Logger, rewritten: { orders: number; reports: number }): Promise<void> {
  if (rewritten.orders + rewritten.reports > 0)
    log.info(rewritten, "stored checkout session ids and report ids replaced by their keyed hashes");
}

/**
 * Opens the database (applying migrations), loads the content and builds every service and every
 * operation: the one place that wires features together, and the one place with start-up I/O besides
 * the server itself. Tests use it too, against a temp file.
 */
export async function composeServices(config: Config, log: Logger, options: ComposeOptions = {}): Promise<AppServices> {
  const now = options.now ?? (() => new Date());
  const content = withSiteUrls(getContent(config.root), config);
  const database = new Database(config.database);
  await database.configure(options.checkpointEveryMs);
  const applied = await migrate(database.client);
  if (applied.length > 0) log.info({ applied }, "database migrations applied");
  const secrets = await loadSecretRing(database, config, (message) => log.warn(message));
  const signingKeys = loadSigningKeys(database.path, config);
  const keys = await loadLookupKeys(database.client, secrets);
  await logRewrite(log, await rewriteLegacyCredentials(database.client, async () => keys));
  const db = () => database.client;
  const limiter = rateLimiterFor(config, content, db, now, secrets);
  const monitor = new ServiceStateMonitor({
    database,
    onDatabaseReopened: async () => {
      await migrate(database.client);
      // A file put back keeps this server's lookup key: it is sealed into it if it has none.
      const reopened = await loadLookupKeys(database.client, secrets, keys);
      if (reopened.id !== keys.id)
        log.error("the database file was replaced by one with another lookup key: restart every instance");
      await logRewrite(log, await rewriteLegacyCredentials(database.client, async () => keys));
      log.warn("the database file was replaced or came back; reopened it");
    },
    paymentsConfigured: () => Boolean(config.stripe.secretKey),
    mailConfigured: () => Boolean(config.mail.smtpUrl),
    filesDir: config.privateFilesDir,
    now,
    ttlMs: options.stateTtlMs ?? 1_000,
  });
  const tokenOwners = new TokenOwnerCache(
    // TOKEN_CACHE_MS=0 turns it off whatever the caller's lifetime (a test's stateTtlMs) says.
    config.tokenCacheMs === 0 ? 0 : (options.stateTtlMs ?? config.tokenCacheMs),
    () => now().getTime(),
    undefined,
    (token) =>
      isOAuthAccessToken(token)
        ? findOAuthTokenOwner(database.client, hashToken(token))
        : findTokenOwner(database.client, hashToken(token)),
  );
  const standingEpoch = new StandingEpoch(() => readStandingEpoch(db()));
  const { payments, store, storeDeps, mail } = composeCommerce({ config, content, db, now, secrets, keys, log });
  const checkServices = createCheckServices({
    config,
    content,
    db,
    now,
    secrets,
    signingKeys,
    keys,
    monitor,
    payments,
    ...(options.checkerLookup ? { lookup: options.checkerLookup } : {}),
  });
  const { checks } = checkServices;
  const monitorServices = createMonitorServices({
    config,
    content,
    db,
    now,
    secrets,
    keys,
    log,
    checker: {
      vet: (domain) => checks.target(domain),
      isLocalHost: (host) => checks.isAllowListedHost(host),
      check: (watched) =>
        checks.run({ domain: watched.origin, ...(watched.profile ? { profile: watched.profile } : {}) }),
      isOpen: async () => (await monitor.current()).switches.checks,
      budgetMs: checks.budgetMs,
    },
  });
  const storeHandlers = storeWebhooks(store, storeDeps);
  const checkHandlers = checkWebhooks(checkServices, db, payments);
  const webhooks = new PaymentWebhooks({
    db,
    now,
    log,
    table: storeHandlers && checkHandlers ? webhookTable(storeHandlers, checkHandlers) : {},
  });
  const agents = new AgentService({ db, now });
  const waitlist = new WaitlistService({ db, now });
  const agentWaitlist = new AgentWaitlist({
    db,
    now,
    onStandingChanged: (agentId) => tokenOwners.forgetAgent(agentId),
  });
  const bodySchemas = requestSchemas(content);
  const operations = {
    agents: agentOperations(agents),
    checks: checkOperations(checkServices.checks, checkServices.checkPayments),
    monitors: monitorOperations(monitorServices.monitors),
    store: storeOperations(store),
    waitlists: waitlistOperations(waitlist, agentWaitlist),
  };
  const operationDeps = {
    limiter,
    monitor,
    service: content.service,
    auth: {
      findOwner: (hash: Uint8Array) => findTokenOwner(db(), hash),
      findOAuthOwner: (hash: Uint8Array) => findOAuthTokenOwner(db(), hash),
      limiter,
      cache: tokenOwners,
      epoch: standingEpoch,
    },
    bodySchemas,
  };
  const oauth = composeOAuth({
    config,
    log,
    db,
    now,
    secrets,
    registrations: signInRegistrations({ operations, operationDeps, monitor, content, database }),
    ...(options.clientDocumentLookup ? { lookup: options.clientDocumentLookup } : {}),
  });
  return {
    content,
    database,
    monitor,
    limiter,
    agents,
    tokenOwners,
    standingEpoch,
    waitlist,
    ...checkServices,
    ...monitorServices,
    secrets,
    signingKeys,
    keys,
    now,
    payments,
    webhooks,
    mail,
    store,
    oauth,
    operations,
    operationDeps,
  };
}
