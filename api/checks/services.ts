import type { Content } from "../../src/content/model.ts";
import { isOperationAvailable } from "../../src/lib/discovery/state.ts";
import { findOperation } from "../../src/lib/registry.ts";
import { absolute } from "../../src/lib/urls.ts";
import type { Config } from "../config.ts";
import type { Sql } from "../db/sql.ts";
import type { SecretRing } from "../platform/secret-ring.ts";
import type { ServiceStateMonitor } from "../platform/state/service-state.ts";
import type { CommerceServices } from "../store/services.ts";
import { checkerSettingsFromConfig } from "./engine/settings.ts";
import { CheckFulfilment } from "./fulfilment.ts";
import { registerCheckMail } from "./mail.ts";
import { CheckPayments } from "./payments.ts";
import { ChecksService, type ChecksServiceDeps, reportApiPath, reportPath } from "./service.ts";
import { registerCheckWebhooks } from "./webhooks.ts";

export interface CheckServices {
  checks: ChecksService;
  checkPayments: CheckPayments;
}

export interface CheckServicesDeps {
  config: Config;
  content: Content;
  db: () => Sql;
  now: () => Date;
  secrets: SecretRing;
  monitor: ServiceStateMonitor;
  commerce: Pick<CommerceServices, "payments" | "webhooks" | "mail">;
  lookup?: ChecksServiceDeps["lookup"];
}

/** Readiness checks and their payments: the checker, reports, unlocks by card or credit, receipts. */
export function createCheckServices({
  config,
  content,
  db,
  now,
  secrets,
  monitor,
  commerce,
  lookup,
}: CheckServicesDeps): CheckServices {
  const pricing = content.pricing.checks;
  const checks = new ChecksService({
    db,
    now,
    settings: checkerSettingsFromConfig(config),
    siteUrl: config.siteUrl,
    docsUrl: config.docsUrl,
    pricing,
    secrets,
    unlockPaths: async () => {
      const state = await monitor.current();
      return {
        checkout: isOperationAvailable(findOperation("checkoutCheck"), state, content.service),
        redeem: isOperationAvailable(findOperation("redeemCredit"), state, content.service),
      };
    },
    ...(lookup ? { lookup } : {}),
  });
  const fulfilment = new CheckFulfilment({ db, now, payments: commerce.payments, serverSecret: secrets.current });
  if (commerce.payments) registerCheckWebhooks(commerce.webhooks, { db, payments: commerce.payments, fulfilment });
  registerCheckMail(commerce.mail, {
    db,
    secrets,
    reportUrl: (id) => absolute(config.docsUrl, reportPath(id)),
    redeemApiUrl: (id) => absolute(config.siteUrl, `${reportApiPath(id)}/redeem`),
    siteUrl: config.siteUrl,
    serviceName: content.service.name,
    contactEmail: content.service.contact.email,
  });
  const checkPayments = new CheckPayments({
    db,
    now,
    payments: commerce.payments,
    pricing,
    siteUrl: config.siteUrl,
    serverSecret: secrets.current,
    packsOpen: async () => (await monitor.current()).switches.credit_packs,
    fulfilment,
  });
  return { checks, checkPayments };
}
