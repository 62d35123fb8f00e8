import { join } from "node:path";
import type { CommandDef } from "citty";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outboxCommand } from "../../scripts/admin/outbox.ts";
import { storeCommands } from "../../scripts/admin/store.ts";
import { type AdminRun, runAdmin, runAdminCommand } from "../helpers/admin-cli.ts";
import { createStoreApp, type StoreTestApp, sessionKey } from "../helpers/store.ts";
import { testBuild } from "../helpers/test-build.ts";

let store: StoreTestApp;
let sessionId: string;
let orderId: string;
let entitlementId: string;

const COMMANDS: Record<string, CommandDef> = {
  orders: storeCommands.orders,
  entitlements: storeCommands.entitlements,
  outbox: outboxCommand,
};

/** Runs a store command in this process. */
async function admin(group: string, ...args: string[]): Promise<AdminRun> {
  const command = COMMANDS[group];
  if (!command) throw new Error(`no command ${group}`);
  return runAdminCommand(command, ...args);
}

beforeAll(async () => {
  store = await createStoreApp();
  sessionId = await store.buy("agent-readiness-checklist", { email: "staff-test@example.com" });
  await store.fake.pay(sessionId);
  const row = await store.t.services.database.client.queryOne({
    sql: "SELECT o.id AS order_id, e.id AS entitlement_id FROM store_orders o JOIN store_entitlements e ON e.order_id = o.id WHERE o.session_hash = ?",
    args: [sessionKey(store, sessionId)],
  });
  orderId = String(row?.order_id);
  entitlementId = String(row?.entitlement_id);
  // The commands read their configuration from the environment, as `npm run admin` does.
  Object.assign(process.env, {
    NODE_ENV: "test",
    DATABASE_URL: `file:${join(store.t.dir, "service.db")}`,
    SITE_URL: store.t.config.siteUrl,
    DIST_DIR: testBuild().distDir,
    SMTP_URL: "",
    STRIPE_SECRET_KEY: "",
    LOG_LEVEL: "silent",
  });
});
afterAll(() => store.close());

// A fresh Node process takes seconds on a busy machine.
const SLOW = 60_000;
const download = () => store.t.send("GET", `/api/v1/store/sessions/${sessionId}/download`);

describe("npm run admin: the store", () => {
  it(
    "registers its commands in npm run admin, each answering --help",
    async () => {
      const { stdout } = await runAdmin({}, "entitlements", "extend", "--help");
      expect(stdout).toContain("USAGE");
      expect(stdout).toContain("--days");
    },
    SLOW,
  );

  it("lists and shows orders with their entitlement and e-mails", async () => {
    const list = await admin("orders", "list", "--json");
    const show = await admin("orders", "show", sessionId);
    const missing = await admin("orders", "show", "ord_nope");
    expect(JSON.parse(list.stdout)).toEqual([
      expect.objectContaining({
        id: orderId,
        // Only the keyed hash of the session id is stored: the id itself grants the download.
        session_hash: sessionKey(store, sessionId),
        state: "fulfilled",
        entitlement: expect.objectContaining({ id: entitlementId }),
      }),
    ]);
    expect(show.stdout).toContain(`id:              ${orderId}`);
    expect(show.stdout).toContain("store-delivery");
    expect(missing.stderr).toContain("No order ord_nope");
  });

  it("prints queued messages, with their working link, when there is no SMTP server", async () => {
    const { stdout } = await admin("outbox", "list");
    const send = await admin("outbox", "send");
    expect(stdout).toContain("Subject: Your download: Agent-readiness checklist");
    const link = /(https?:\/\/\S+\/api\/v1\/downloads\/\S+)/.exec(stdout)?.[1] ?? "";
    // The link names the configured site URL, as the server's own e-mails do.
    expect(new URL(link).origin).toBe(store.t.config.siteUrl);
    expect((await store.t.send("GET", new URL(link).pathname)).status).toBe(200);
    expect(send.stderr).toContain("SMTP_URL is not set");
  });

  it("refuses to render e-mails for a site URL other than the build's, naming both and the fix", async () => {
    const built = store.t.config.siteUrl;
    process.env.SITE_URL = "https://elsewhere.example";
    try {
      for (const subcommand of ["list", "send"]) {
        const refused = await admin("outbox", subcommand);
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain(
          `The build was made for ${built}, but this command is configured for https://elsewhere.example`,
        );
        expect(refused.stderr).toContain(`SITE_URL=https://elsewhere.example npm run build`);
        expect(refused.stderr).toContain(`or set SITE_URL=${built}`);
        expect(refused.stdout).not.toContain("Subject:");
      }
    } finally {
      process.env.SITE_URL = built;
    }
  });

  it("revokes, restores and extends an entitlement, and queues the delivery e-mail again", async () => {
    expect((await admin("entitlements", "revoke", entitlementId)).stdout).toContain(`Revoked ${entitlementId}.`);
    expect((await download()).status).toBe(410);
    expect((await admin("entitlements", "restore", entitlementId)).stdout).toContain(`Restored ${entitlementId}.`);
    expect((await download()).status).toBe(200);
    const before = String(
      (
        await store.t.services.database.client.queryOne({
          sql: "SELECT expires_at FROM store_entitlements WHERE id = ?",
          args: [entitlementId],
        })
      )?.expires_at,
    );
    const extended = await admin("entitlements", "extend", entitlementId, "--days", "30");
    const refused = await admin("entitlements", "extend", "ent_nope", "--days", "0");
    const after = /now ends at (\S+)\./.exec(extended.stdout)?.[1] ?? "";
    expect(Date.parse(after) - Date.parse(before)).toBe(30 * 86_400_000);
    expect(after).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(refused.stderr).toContain("--days must be a whole number");
    expect((await admin("orders", "resend", orderId, "--to", "other@example.com")).stdout).toMatch(
      /^Queued mail_\w+ to other@example\.com\./,
    );
    const queued = await store.t.services.database.client.queryOne({
      sql: "SELECT COUNT(*) AS n FROM mail_outbox WHERE kind = 'store-delivery' AND state = 'queued'",
    });
    expect(Number(queued?.n)).toBe(2);
  });
});
