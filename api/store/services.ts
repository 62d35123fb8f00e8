import type { Content } from "../../src/content/model.ts";
import type { Config } from "../config.ts";
import type { Sql } from "../db/sql.ts";
import type { PaymentsGateway } from "../payments/stripe-client.ts";
import type { LookupKeys } from "../platform/credentials/lookup-keys.ts";
import type { Logger } from "../platform/log.ts";
import type { SecretRing } from "../platform/secret-ring.ts";
import { StoreCatalogue } from "./catalogue.ts";
import { StoreCheckout } from "./checkout.ts";
import { StoreDownloads } from "./downloads.ts";
import { StoreFulfilment } from "./fulfilment.ts";
import type { StoreMailDeps } from "./mail.ts";
import { PurchaseSessions } from "./purchase-sessions.ts";
import { storeWebhookHandlers } from "./webhooks.ts";

/** The store's services, as the routes, pages and staff CLI use them. */
export interface StoreServices {
  catalogue: StoreCatalogue;
  checkout: StoreCheckout;
  fulfilment: StoreFulfilment;
  sessions: PurchaseSessions;
  downloads: StoreDownloads;
}

export interface StoreDeps {
  config: Pick<Config, "siteUrl" | "privateFilesDir">;
  content: Content;
  db: () => Sql;
  now: () => Date;
  secrets: SecretRing;
  /** Keyed hashes of checkout session ids, and the seal of the one a delivery e-mail shows. */
  keys: LookupKeys;
  log: Logger;
  /** `null` without STRIPE_SECRET_KEY: checkout answers 503 and its capabilities drop out. */
  payments: PaymentsGateway | null;
}

export function createStoreServices({
  config,
  content,
  db,
  now,
  secrets,
  keys,
  log,
  payments,
}: StoreDeps): StoreServices {
  const catalogue = new StoreCatalogue(content, config.privateFilesDir);
  const fulfilment = new StoreFulfilment({ db, now, catalogue, payments, keys, log });
  return {
    catalogue,
    checkout: new StoreCheckout({
      db,
      now,
      catalogue,
      payments,
      siteUrl: config.siteUrl,
      serverSecret: secrets.current,
      keys,
    }),
    fulfilment,
    sessions: new PurchaseSessions({ db, now, catalogue, payments, fulfilment, keys, log }),
    downloads: new StoreDownloads({ db, now, catalogue, siteUrl: config.siteUrl, secrets, keys }),
  };
}

/** What the store's e-mails need to render (api/wiring/mail-templates.ts). */
export function storeMailDeps(store: StoreServices, { config, content, db, now, keys }: StoreDeps): StoreMailDeps {
  return {
    db,
    now,
    keys,
    catalogue: store.catalogue,
    downloads: store.downloads,
    siteUrl: config.siteUrl,
    serviceName: content.service.name,
    contactEmail: content.service.contact.email,
  };
}

/** The store's payment-event handlers, for the webhook table; none without a payment provider. */
export function storeWebhooks(store: StoreServices, { db, now, keys, log, payments }: StoreDeps) {
  return payments ? storeWebhookHandlers({ db, now, payments, fulfilment: store.fulfilment, keys, log }) : null;
}
