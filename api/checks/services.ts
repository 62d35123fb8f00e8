import type { Content } from "../../src/content/model.ts";
import { isOperationAvailable } from "../../src/lib/discovery/state.ts";
import { findOperation } from "../../src/lib/registry.ts";
import { absolute } from "../../src/lib/urls.ts";
import type { Config } from "../config.ts";
import type { Sql } from "../db/sql.ts";
import type { PaymentsGateway } from "../payments/stripe-client.ts";
import type { LookupKeys } from "../platform/credentials/lookup-keys.ts";
import type { SecretRing } from "../platform/secret-ring.ts";
import { crawlerSigner } from "../platform/signing/request-signature.ts";
import type { SigningKeyRing } from "../platform/signing/signing-keys.ts";
import type { ServiceStateMonitor } from "../platform/state/service-state.ts";
import { SiteRenderer } from "./engine/render/site-renderer.ts";
import { checkerSettingsFromConfig } from "./engine/settings.ts";
import { CheckFulfilment } from "./fulfilment.ts";
import type { CheckMailDeps } from "./mail.ts";
import { CheckPayments } from "./payments.ts";
import { ChecksService, type ChecksServiceDeps, reportApiPath, reportPath } from "./service.ts";
import { checkWebhookHandlers } from "./webhooks.ts";

export interface CheckServices {
  checks: ChecksService;
  /** Paying for a report: a client secret for agents, a hosted page for people. */
  checkPayments: CheckPayments;
  /** Unlocks and credits from a confirmed payment, once. */
  checkFulfilment: CheckFulfilment;
  /** The instance's one browser for rendered checks, launched on first use; closed at shutdown. */
  renderer: SiteRenderer;
}

export interface CheckServicesDeps {
  config: Config;
  content: Content;
  db: () => Sql;
  now: () => Date;
  secrets: SecretRing;
  /** The crawler's Web Bot Auth keys: every request a check sends is signed with the current one. */
  signingKeys: SigningKeyRing;
  keys: LookupKeys;
  monitor: ServiceStateMonitor;
  payments: PaymentsGateway | null;
  lookup?: ChecksServiceDeps["lookup"];
}

/** Readiness checks and their payments: the checker, reports, unlocks by card or credit. */
export function createCheckServices({
  config,
  content,
  db,
  now,
  secrets,
  signingKeys,
  keys,
  monitor,
  payments,
  lookup,
}: CheckServicesDeps): CheckServices {
  const pricing = content.pricing.checks;
  const settings = checkerSettingsFromConfig(config, crawlerSigner(signingKeys, config.siteUrl));
  const renderer = new SiteRenderer({ executablePath: config.chromiumPath, settings });
  const checks = new ChecksService({
    db,
    now,
    settings,
    renderer,
    siteUrl: config.siteUrl,
    docsUrl: config.docsUrl,
    pricing,
    secrets,
    keys,
    unlockPaths: async () => {
      const state = await monitor.current();
      return {
        checkout: isOperationAvailable(findOperation("checkoutCheck"), state, content.service),
        redeem: isOperationAvailable(findOperation("redeemCredit"), state, content.service),
      };
    },
    monitorsOpen: async () =>
      isOperationAvailable(findOperation("createAgentMonitor"), await monitor.current(), content.service),
    ...(lookup ? { lookup } : {}),
  });
  const checkFulfilment = new CheckFulfilment({ db, now, payments, serverSecret: secrets.current, keys });
  const checkPayments = new CheckPayments({
    db,
    now,
    payments,
    pricing,
    siteUrl: config.siteUrl,
    serverSecret: secrets.current,
    packsOpen: async () => (await monitor.current()).switches.credit_packs,
    fulfilment: checkFulfilment,
  });
  return { checks, checkPayments, checkFulfilment, renderer };
}

/** What the receipt e-mail needs to render (api/wiring/mail-templates.ts); the staff CLI builds it too. */
export function checkMailDeps(
  config: Pick<Config, "siteUrl" | "docsUrl">,
  content: Content,
  db: () => Sql,
  secrets: SecretRing,
  keys: LookupKeys,
): CheckMailDeps {
  return {
    db,
    secrets,
    keys,
    reportUrl: (id) => absolute(config.docsUrl, reportPath(id)),
    redeemApiUrl: (id) => absolute(config.siteUrl, `${reportApiPath(id)}/redeem`),
    siteUrl: config.siteUrl,
    serviceName: content.service.name,
    contactEmail: content.service.contact.email,
  };
}

/** The checks' payment-event handlers, for the webhook table; none without a payment provider. */
export function checkWebhooks({ checkFulfilment }: CheckServices, db: () => Sql, payments: PaymentsGateway | null) {
  return payments ? checkWebhookHandlers({ db, payments, fulfilment: checkFulfilment }) : null;
}
