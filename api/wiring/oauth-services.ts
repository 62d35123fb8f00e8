import { readFileSync } from "node:fs";
import type Provider from "oidc-provider";
import { PROTECTED_RESOURCES, type ProtectedResource, protectedResource } from "../../src/lib/discovery/oauth.ts";
import {
  type HostLookup,
  systemLookup,
  TargetNotAllowedError,
  vetDestination,
} from "../checks/engine/fetch/address-guard.ts";
import { createPinnedAgent } from "../checks/engine/fetch/pinned-agent.ts";
import { defineCheckerSettings, effectivePort } from "../checks/engine/settings.ts";
import type { Config } from "../config.ts";
import type { Sql } from "../db/sql.ts";
import { clientDocumentFetch, type OutboundGuard } from "../oauth/client-document-fetch.ts";
import { ConsentService, type Registrations } from "../oauth/consent/consent-service.ts";
import { loadRememberedGrant } from "../oauth/consent/remembered.ts";
import { createAuthorizationServer } from "../oauth/provider.ts";
import { purgeExpiredRecords } from "../oauth/storage/records-sql.ts";
import type { Logger } from "../platform/log.ts";
import type { SecretRing } from "../platform/secret-ring.ts";

/** One connection's worth of time: the draft's documents are small, and a slow host must not hold a sign-in. */
const LIMITS = { requestTimeoutMs: 2_500, maxConcurrency: 1 };

/**
 * The checker's SSRF guard, lent to the authorization server for client ID metadata documents: https
 * on port 443 only, every resolved address public, the connection pinned to the addresses vetted. The
 * test allowance (OAUTH_CIMD_ALLOWED_TARGETS, refused in production) lets a loopback host through, and
 * only for such a host is OAUTH_CIMD_CA_FILE trusted, so production keeps the system's authorities.
 */
export function clientDocumentGuard(
  config: Pick<Config, "env" | "siteUrl" | "oauth">,
  lookup: HostLookup = systemLookup,
): OutboundGuard {
  const settings = defineCheckerSettings({
    production: config.env === "production",
    allowedTargets: config.oauth.cimdAllowedTargets,
    siteUrl: config.siteUrl,
  });
  const testCa = config.oauth.cimdCaFile ? readFileSync(config.oauth.cimdCaFile, "utf8") : undefined;
  return {
    async open(url) {
      if (url.protocol !== "https:")
        throw new TargetNotAllowedError("scheme", "a client ID metadata document is fetched over https only", url.href);
      const vetted = await vetDestination(url, settings, lookup);
      if (!vetted.allowListed && effectivePort(url) !== 443)
        throw new TargetNotAllowedError("port", `port ${effectivePort(url)} is not fetched: only 443 is`, url.href);
      const pins = new Map([[vetted.hostname.toLowerCase(), vetted.addresses]]);
      return createPinnedAgent(pins, LIMITS, vetted.allowListed && testCa ? { ca: testCa } : undefined);
    },
  };
}

/** The authorization server and the consent page's service, and the resources tokens are issued for. */
export interface OAuthServices {
  provider: Provider;
  consent: ConsentService;
  resources: readonly ProtectedResource[];
  /** Deletes records that expired more than a day ago; answers how many went. */
  purgeExpired(): Promise<number>;
}

/** How long an expired record is kept (a revoked token's row says "revoked" rather than "unknown" meanwhile). */
const EXPIRED_KEPT_SECONDS = 86_400;

interface OAuthDeps {
  config: Pick<Config, "env" | "siteUrl" | "docsUrl" | "oauth">;
  log: Logger;
  db: () => Sql;
  now: () => Date;
  secrets: SecretRing;
  registrations: Registrations;
  /** DNS for client ID metadata documents (tests make a name resolve to a private address). */
  lookup?: HostLookup;
}

export function composeOAuth({ config, log, db, now, secrets, registrations, lookup }: OAuthDeps): OAuthServices {
  const resources = PROTECTED_RESOURCES.map((name) => protectedResource(config.siteUrl, name));
  const userAgent = `AgentReady-OAuth/1.0 (+${config.docsUrl.replace(/\/+$/, "")}/docs/agents/sign-in-from-mcp-clients)`;
  const provider = createAuthorizationServer({
    siteUrl: config.siteUrl,
    db,
    now,
    secrets,
    resources,
    fetchClientDocument: clientDocumentFetch(clientDocumentGuard(config, lookup), log, userAgent),
    loadExistingGrant: loadRememberedGrant(db),
    accountStands: async (agentId) => (await registrations.standing(agentId)) !== null,
  });
  provider.on("server_error", (_ctx, error: unknown) => {
    log.error(
      { err: error instanceof Error ? { message: error.message, stack: error.stack } : String(error) },
      "oauth server error",
    );
  });
  return {
    provider,
    consent: new ConsentService({ provider, resources, registrations, db, now }),
    resources,
    purgeExpired: () => purgeExpiredRecords(db(), Math.floor(now().getTime() / 1000), EXPIRED_KEPT_SECONDS),
  };
}
