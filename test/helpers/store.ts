import { expect } from "vitest";
import type { Logger } from "../../api/platform/log.ts";
import { type FakeStripe, type SignedEvent, startFakeStripe } from "../fakes/stripe/fake-server.ts";
import { createTestApp, type TestApp } from "./app.ts";
import { validateAgainstPublishedSchema } from "./site.ts";

export const WEBHOOK_SECRET = "whsec_test_store_secret";

export interface StoreTestApp {
  t: TestApp;
  fake: FakeStripe;
  /** Events from the fake's controls reach the app's webhook at once unless this is false. */
  autoDeliver: boolean;
  /** POSTs a signed event to the app's webhook, as the provider would. */
  deliver(signed: SignedEvent): Promise<Response>;
  /** Starts a checkout (each call from its own address, so rate limits do not interfere). */
  checkout(productId: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  /** Starts a checkout that must succeed; returns its session id. */
  buy(productId: string, body?: unknown): Promise<string>;
  session(sessionId: string): Promise<Response>;
  close(): Promise<void>;
}

let address = 0;
/** A fresh client address per call (RFC 5737 test range). */
export function nextAddress(): string {
  address++;
  return `203.0.113.${address % 250}`;
}

/** The app over a temp database with payments pointed at a fresh fake provider on loopback. */
export async function createStoreApp(
  options: { env?: Record<string, string>; now?: () => Date; log?: Logger } = {},
): Promise<StoreTestApp> {
  let store: StoreTestApp | undefined;
  const fake = await startFakeStripe({
    webhookSecret: WEBHOOK_SECRET,
    deliverTo: async (signed) => {
      if (store?.autoDeliver) expect((await store.deliver(signed)).status).toBe(200);
    },
  });
  const t = await createTestApp({
    env: {
      STRIPE_SECRET_KEY: "sk_test_store",
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: fake.url,
      STRIPE_TIMEOUT_MS: "500",
      ...options.env,
    },
    ...(options.now ? { now: options.now } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  const created: StoreTestApp = {
    t,
    fake,
    autoDeliver: true,
    deliver: (signed) =>
      t.send("POST", "/api/v1/webhooks/stripe", signed.payload, { "stripe-signature": signed.header }),
    checkout: (productId, body, headers = {}) =>
      t.send("POST", `/api/v1/store/${productId}/checkout`, body, { "x-forwarded-for": nextAddress(), ...headers }),
    async buy(productId, body) {
      const response = await created.checkout(productId, body);
      expect(response.status).toBe(201);
      const started = (await response.json()) as { id: string };
      expect(validateAgainstPublishedSchema("checkout-started", started)).toEqual([]);
      return started.id;
    },
    session: (sessionId) =>
      t.send("GET", `/api/v1/store/sessions/${sessionId}`, undefined, { "x-forwarded-for": nextAddress() }),
    async close() {
      await fake.close();
      await t.close();
    },
  };
  store = created;
  return created;
}

export interface SessionBody {
  id: string;
  status: string;
  payment_status: string;
  delivery: { state: string };
  entitlement: { active: boolean; expires_at: string | null };
  download_url?: string;
}

/** Reads a purchase session that must answer 200 and match its published schema. */
export async function readSession(store: StoreTestApp, sessionId: string): Promise<SessionBody> {
  const response = await store.session(sessionId);
  expect(response.status).toBe(200);
  const body = (await response.json()) as SessionBody;
  expect(validateAgainstPublishedSchema("purchase-session", body)).toEqual([]);
  return body;
}

/** Rows of a table, for assertions about what was (not) written. */
export async function countRows(
  store: StoreTestApp,
  table: string,
  where = "true",
  args: readonly (string | number)[] = [],
): Promise<number> {
  const row = await store.t.services.database.client.queryOne({
    sql: `SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`,
    args,
  });
  return Number(row?.n ?? 0);
}

/** What the database keeps for a checkout session id: its keyed hash (the id itself is a credential). */
export const sessionKey = (store: StoreTestApp, sessionId: string): string =>
  store.t.services.keys.hash("checkout-session", sessionId);

/** The id of the entitlement a paid checkout session opened. */
export async function entitlementOf(store: StoreTestApp, sessionId: string): Promise<string> {
  const row = await store.t.services.database.client.queryOne({
    sql: "SELECT e.id FROM store_entitlements e JOIN store_orders o ON o.id = e.order_id WHERE o.session_hash = ?",
    args: [sessionKey(store, sessionId)],
  });
  return String(row?.id);
}

/** The path of the download link a delivery e-mail sent at `at` carries. */
export function downloadLinkPath(store: StoreTestApp, entitlementId: string, at = new Date()): string {
  return store.t.services.store.downloads.linkFor(entitlementId, at).url.replace(store.t.config.siteUrl, "");
}
