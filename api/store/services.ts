import type { Content } from "../../src/content/model.ts";
import type { Config } from "../config.ts";
import type { Sql } from "../db/sql.ts";
import { MailOutbox } from "../mail/outbox.ts";
import { createSmtpTransport } from "../mail/transport.ts";
import { createStripeClient, PaymentsGateway } from "../payments/stripe-client.ts";
import { PaymentWebhooks } from "../payments/webhooks.ts";
import type { Logger } from "../platform/log.ts";
import type { SecretRing } from "../platform/secret-ring.ts";
import { StoreCatalogue } from "./catalogue.ts";
import { StoreCheckout } from "./checkout.ts";
import { StoreDownloads } from "./downloads.ts";
import { StoreFulfilment } from "./fulfilment.ts";
import { registerStoreMail } from "./mail.ts";
import { PurchaseSessions } from "./purchase-sessions.ts";
import { registerStoreWebhooks } from "./webhooks.ts";

/** The store's services, as the routes, pages and staff CLI use them. */
export interface StoreServices {
  catalogue: StoreCatalogue;
  checkout: StoreCheckout;
  fulfilment: StoreFulfilment;
  sessions: PurchaseSessions;
  downloads: StoreDownloads;
}

/** What payments, the webhook dispatcher and the mail outbox add to the app's services. */
export interface CommerceServices {
  /** `null` without STRIPE_SECRET_KEY: checkout answers 503 and its capabilities drop out. */
  payments: PaymentsGateway | null;
  /** Other features register their event handlers here (e.g. `payment_intent.succeeded`). */
  webhooks: PaymentWebhooks;
  /** Other features queue mail with `queueMailStatement` (api/mail/outbox-sql.ts) and register templates here. */
  mail: MailOutbox;
  store: StoreServices;
}

export interface CommerceDeps {
  config: Pick<Config, "siteUrl" | "privateFilesDir" | "stripe" | "mail">;
  content: Content;
  db: () => Sql;
  now: () => Date;
  secrets: SecretRing;
  log: Logger;
}

export function createCommerceServices({ config, content, db, now, secrets, log }: CommerceDeps): CommerceServices {
  const { stripe } = config;
  const payments = stripe.secretKey
    ? new PaymentsGateway(
        createStripeClient({
          secretKey: stripe.secretKey,
          webhookSecret: stripe.webhookSecret,
          apiBase: stripe.apiBase,
          timeoutMs: stripe.timeoutMs,
        }),
        stripe.webhookSecret,
        log,
      )
    : null;
  const catalogue = new StoreCatalogue(content, config.privateFilesDir);
  const fulfilment = new StoreFulfilment({ db, now, catalogue, payments, log });
  const downloads = new StoreDownloads({ db, now, catalogue, siteUrl: config.siteUrl, secrets });
  const store: StoreServices = {
    catalogue,
    checkout: new StoreCheckout({
      db,
      now,
      catalogue,
      payments,
      siteUrl: config.siteUrl,
      serverSecret: secrets.current,
    }),
    fulfilment,
    sessions: new PurchaseSessions({ db, now, catalogue, payments, fulfilment, log }),
    downloads,
  };
  const webhooks = new PaymentWebhooks({ db, now, log });
  if (payments) registerStoreWebhooks(webhooks, { db, now, payments, fulfilment, log });
  const mail = new MailOutbox({
    db,
    now,
    from: config.mail.from,
    host: new URL(config.siteUrl).hostname,
    transport: config.mail.smtpUrl ? createSmtpTransport(config.mail.smtpUrl) : null,
    log,
  });
  registerStoreMail(mail, {
    db,
    now,
    catalogue,
    downloads,
    siteUrl: config.siteUrl,
    serviceName: content.service.name,
    contactEmail: content.service.contact.email,
  });
  return { payments, webhooks, mail, store };
}
