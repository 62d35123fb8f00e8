import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signDownloadToken } from "../../../api/store/download-links.ts";
import { expectProblem } from "../../helpers/agents.ts";
import { createStoreApp, readSession, type StoreTestApp, sessionKey } from "../../helpers/store.ts";

const DAY = 86_400_000;
let offset = 0;
let store: StoreTestApp;
let sessionId: string;
let entitlementId: string;
let file: Buffer;

beforeAll(async () => {
  store = await createStoreApp({ now: () => new Date(Date.now() + offset) });
  sessionId = await store.buy("agent-readiness-checklist", { email: "reader@example.com" });
  await store.fake.pay(sessionId);
  const row = await store.t.services.database.client.queryOne({
    sql: "SELECT e.id FROM store_entitlements e JOIN store_orders o ON o.id = e.order_id WHERE o.session_hash = ?",
    args: [sessionKey(store, sessionId)],
  });
  entitlementId = String(row?.id);
  file = await readFile(join(process.cwd(), "content/files/agent-readiness-checklist.md"));
});
afterAll(() => store.close());

const byId = () => `/api/v1/store/sessions/${sessionId}/download`;
const linkPath = (at = new Date(Date.now() + offset)) =>
  store.t.services.store.downloads.linkFor(entitlementId, at).url.replace(store.t.config.siteUrl, "");
const get = (path: string, headers: Record<string, string> = {}) => store.t.send("GET", path, undefined, headers);

async function snapshot(): Promise<string> {
  const tables = [
    "store_orders",
    "store_fulfilments",
    "store_entitlements",
    "store_revocations",
    "store_stock",
    "payment_events",
    "mail_outbox",
  ];
  const rows = await Promise.all(
    tables.map(
      async (table) => (await store.t.services.database.client.execute(`SELECT * FROM ${table} ORDER BY 1`)).rows,
    ),
  );
  return JSON.stringify(rows);
}

describe("downloading a purchased file", () => {
  it("serves the same bytes and headers by session id and by e-mailed link, and HEAD without a body", async () => {
    for (const path of [byId(), linkPath()]) {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("private, no-store");
      expect(response.headers.get("accept-ranges")).toBe("bytes");
      expect(response.headers.get("etag")).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
      expect(Buffer.from(await response.arrayBuffer()).equals(file)).toBe(true);
    }
    const head = await store.t.send("HEAD", byId());
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(file.length));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it("answers byte ranges with 206, outside the file with 416, and ignores several ranges or a stale If-Range", async () => {
    const first = await get(byId(), { range: "bytes=0-1023" });
    expect(first.status).toBe(206);
    expect(first.headers.get("content-range")).toBe(`bytes 0-1023/${file.length}`);
    expect(Buffer.from(await first.arrayBuffer()).equals(file.subarray(0, 1024))).toBe(true);
    const rest = await get(linkPath(), { range: "bytes=4096-" });
    expect(Buffer.from(await rest.arrayBuffer()).equals(file.subarray(4096))).toBe(true);
    const tail = await get(byId(), { range: "bytes=-10" });
    expect(Buffer.from(await tail.arrayBuffer()).equals(file.subarray(file.length - 10))).toBe(true);
    const outside = await get(byId(), { range: `bytes=${file.length}-` });
    await expectProblem(outside, 416, "range-not-satisfiable");
    expect(outside.headers.get("content-range")).toBe(`bytes */${file.length}`);
    expect((await get(byId(), { range: "bytes=0-1,5-6" })).status).toBe(200);
    const etag = (await get(byId())).headers.get("etag") ?? "";
    expect((await get(byId(), { range: "bytes=0-1", "if-range": '"stale"' })).status).toBe(200);
    expect((await get(byId(), { range: "bytes=0-1", "if-range": etag })).status).toBe(206);
  });

  it("never changes anything in the database, however often it is used", async () => {
    const before = await snapshot();
    await Promise.all([
      get(byId()),
      get(linkPath()),
      get(byId(), { range: "bytes=0-5" }),
      get("/api/v1/downloads/v1.ent_x.1.x"),
    ]);
    expect(await snapshot()).toBe(before);
  });

  it("answers 404 for a session that does not exist or is not fulfilled yet", async () => {
    await expectProblem(await get("/api/v1/store/sessions/cs_test_doesnotexist/download"), 404, "not-found");
    await expectProblem(await get("/api/v1/store/sessions/not-a-session/download"), 404, "not-found");
    const pending = await store.buy("agent-readiness-checklist");
    await expectProblem(await get(`/api/v1/store/sessions/${pending}/download`), 404, "not-found");
  });
});

describe("links that no longer work", () => {
  it("answers 410 link-invalid to a tampered, truncated, unknown or made-up link", async () => {
    const path = linkPath();
    const token = path.split("/").pop() ?? "";
    const [version, entitlement, expiry, signature] = token.split(".");
    const flip = (text: string) => `${text.slice(0, -1)}${text.endsWith("A") ? "B" : "A"}`;
    const bad = [
      `v1.${entitlement}.${Number(expiry) + 86_400}.${signature}`,
      `${version}.${entitlement}.${expiry}.${flip(signature ?? "")}`,
      `${version}.ent_someoneelse.${expiry}.${signature}`,
      token.slice(0, -5),
      signDownloadToken("another-secret-another-secret-another-secret", entitlementId, new Date(Date.now() + DAY)),
      signDownloadToken(store.t.services.secrets.current, "ent_nosuchentitlement", new Date(Date.now() + DAY)),
      "not-a-real-token",
    ];
    for (const candidate of bad) await expectProblem(await get(`/api/v1/downloads/${candidate}`), 410, "link-invalid");
  });

  it("answers 410 link-invalid to a link older than 7 days, while the session route still works", async () => {
    const path = linkPath();
    offset = 8 * DAY;
    try {
      await expectProblem(await get(path), 410, "link-invalid");
      expect((await get(byId())).status).toBe(200);
    } finally {
      offset = 0;
    }
  });

  it("answers 410 entitlement-ended once the entitlement's days have passed, on both routes", async () => {
    offset = 366 * DAY;
    try {
      const link = linkPath(new Date(Date.now() + offset));
      await expectProblem(await get(byId()), 410, "entitlement-ended");
      await expectProblem(await get(link), 410, "entitlement-ended");
      const session = await readSession(store, sessionId);
      expect(session.entitlement.active).toBe(false);
      expect(session.download_url).toBeUndefined();
    } finally {
      offset = 0;
    }
  });
});

describe("when the file store is unavailable", () => {
  it("answers 503 for a file missing from PRIVATE_FILES_DIR, and when the directory is gone", async () => {
    const empty = await mkdtemp(join(tmpdir(), "files-"));
    const broken = await createStoreApp({ env: { PRIVATE_FILES_DIR: empty } });
    try {
      const id = await broken.buy("agent-readiness-checklist", { email: "x@example.com" });
      await broken.fake.pay(id);
      const missing = await broken.t.send("GET", `/api/v1/store/sessions/${id}/download`);
      await expectProblem(missing, 503, "service-unavailable");
      await rm(empty, { recursive: true, force: true });
      await expectProblem(
        await broken.t.send("GET", `/api/v1/store/sessions/${id}/download`),
        503,
        "service-unavailable",
      );
    } finally {
      await broken.close();
      await rm(empty, { recursive: true, force: true });
    }
  });
});
