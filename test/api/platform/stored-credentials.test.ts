import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { creditCodeHash } from "../../../api/checks/sql/credits.ts";
import { backupCommand } from "../../../scripts/admin/backup.ts";
import { bearer, registerAgent } from "../../helpers/agents.ts";
import { everyStoredValue, useSecretBed } from "../../helpers/secret-bed.ts";
import { nextAddress, type StoreTestApp, sessionKey } from "../../helpers/store.ts";

const bed = useSecretBed();

/**
 * Whether `value` works as any credential the API takes: a purchase's session, a report's id, a
 * monitor's page, a token, a link, a code.
 */
async function grants(app: StoreTestApp, value: string, reportToRedeem: string): Promise<string[]> {
  const path = encodeURIComponent(value);
  const attempts: [string, Promise<Response>][] = [
    ["session", app.t.send("GET", `/api/v1/store/sessions/${path}`, undefined, { "x-forwarded-for": nextAddress() })],
    ["session download", app.t.send("GET", `/api/v1/store/sessions/${path}/download`)],
    ["report", app.t.send("GET", `/api/v1/checks/${path}`, undefined, { "x-forwarded-for": nextAddress() })],
    ["download link", app.t.send("GET", `/api/v1/downloads/${path}`)],
    ["monitor", app.t.send("GET", `/api/v1/monitors/${path}`, undefined, { "x-forwarded-for": nextAddress() })],
  ];
  // A header carries printable ASCII only, as every token is.
  if (/^[\x21-\x7e]+$/.test(value))
    attempts.push([
      "token",
      app.t.send("GET", "/api/v1/agents/me", undefined, { ...bearer(value), "x-forwarded-for": nextAddress() }),
    ]);
  if (value.length <= 64)
    attempts.push([
      "credit code",
      app.t.send(
        "POST",
        `/api/v1/checks/${reportToRedeem}/redeem`,
        { code: value },
        { "x-forwarded-for": nextAddress() },
      ),
    ]);
  const granted: string[] = [];
  for (const [what, response] of attempts) if ((await response).status === 200) granted.push(what);
  return granted;
}

const RATE_LIMITS = {
  RATE_LIMITS:
    "session-lookup=100000/60,downloads=100000/60,check-payments=100000/60,agent-auth-failures=100000/60,api-misses=100000/60",
};

describe("a copy of the database, or an `admin backup` of it", () => {
  it("holds nothing that works as a credential: no session id, report id, monitor id, token, link or code", async () => {
    const app = await bed.instance(RATE_LIMITS);
    // Every kind of credential, in use: a paid purchase with its file, a report unlocked by a paid
    // pack (its receipt queued, then sent), a staff code, an agent token, an e-mailed link.
    const issued = await bed.issue(app);
    const sessionId = await app.buy("agent-readiness-checklist", { email: "copy@example.com" });
    await app.fake.pay(sessionId);
    const unlocked = await bed.newReport(app);
    const intentId = await bed.payForReport(app, unlocked, {
      purchase: "pack",
      pack: "pack-5",
      email: "pack@example.com",
    });
    await bed.receiptTo(app, "pack@example.com");
    // One more purchase whose delivery e-mail still waits: its purchase-page session id is sealed in the outbox.
    const waiting = await app.buy("agent-readiness-checklist", { email: "waiting@example.com" });
    await app.fake.pay(waiting);
    const outbox = await app.t.services.database.client.execute(
      "SELECT state, json_extract(payload, '$.sealed') AS sealed FROM mail_outbox ORDER BY created_at",
    );
    expect(outbox.rows.map((row) => [row.state, row.sealed === null ? "no seal" : "sealed"])).toEqual([
      ["sent", "no seal"],
      ["sent", "no seal"],
      ["sent", "no seal"],
      ["queued", "sealed"],
    ]);
    const { token } = await registerAgent(app.t);
    // A watched site, checked once: its run links the report it made, and its owner's page lists the run.
    const watched = await bed.watch(app);
    const locked = await bed.newReport(app);
    // The positive control: each of them works, so the test can tell when a stored value would.
    expect(await grants(app, sessionId, locked)).toEqual(["session", "session download"]);
    expect(await grants(app, unlocked, locked)).toEqual(["report"]);
    expect(await grants(app, token, locked)).toEqual(["token"]);
    expect(await grants(app, issued.link.split("/").pop() ?? "", locked)).toEqual(["download link"]);
    expect(await grants(app, watched.report, locked)).toEqual(["report"]);
    expect(await grants(app, watched.monitor, locked)).toEqual(["monitor"]);
    expect((await app.t.send("GET", `/api/v1/checks/${unlocked}`)).status).toBe(200);
    expect(await creditCodeHash(app.t.services.database.client, `cc_${intentId}`)).not.toBeNull();

    const backup = join(dirname(bed.databaseFile), "copy.db");
    const backedUp = await bed.admin(backupCommand, {}, backup);
    expect(backedUp.code).toBe(0);
    expect(backedUp.stdout).toContain("It holds no credential either");
    for (const file of [bed.databaseFile, backup]) {
      const values = await everyStoredValue(file);
      expect(values.length, file).toBeGreaterThan(100);
      // What the probe of issue 24 did: the stored session id and report id, as they are.
      expect(
        values.filter((value) =>
          [sessionId, waiting, unlocked, watched.report, watched.monitor].some((credential) =>
            value.includes(credential),
          ),
        ),
        file,
      ).toEqual([]);
      expect(values, file).toContain(sessionKey(app, sessionId));
      const granting: string[] = [];
      for (const value of values) {
        const granted = await grants(app, value, locked);
        if (granted.length > 0) granting.push(`${value}: ${granted.join(", ")}`);
      }
      expect(granting, file).toEqual([]);
    }
    await app.close();
  });
});
