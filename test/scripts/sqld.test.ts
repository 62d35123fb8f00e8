import { generateKeyPairSync, randomBytes } from "node:crypto";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { afterAll, describe, expect, it } from "vitest";
import { startSqld } from "../../scripts/lib/sqld.ts";
import { sqldAuthIn, sqldToken } from "../../scripts/lib/sqld-auth.ts";
import { registerAgent } from "../helpers/agents.ts";
import { createTestApp } from "../helpers/app.ts";

// sqld as `npm run cluster` and the tests start it (scripts/lib/sqld.ts): its data is its owner's
// alone, and with --auth-jwt-key-file (the runbook's setting for instances on other hosts) it
// answers only a token signed with that key, which the service sends as DATABASE_AUTH_TOKEN.
const cleanup: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

/** Every file and directory under `dir`, with its permission bits. */
async function modesUnder(dir: string): Promise<{ path: string; mode: number; directory: boolean }[]> {
  const found = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    found.push({ path, mode: (await stat(path)).mode & 0o777, directory: entry.isDirectory() });
  }
  return found;
}

describe("sqld", () => {
  it("keeps its data files to its owner: 0600 files in 0700 directories", async () => {
    const sqld = await startSqld();
    cleanup.push(() => sqld.close());
    const client = createClient({ url: sqld.url });
    await client.execute("CREATE TABLE kept (secret TEXT)");
    await client.execute("INSERT INTO kept VALUES ('hash of a token')");
    client.close();
    const modes = await modesUnder(sqld.dataDir);
    expect(modes.filter((entry) => !entry.directory).length).toBeGreaterThan(0);
    for (const entry of modes) expect(entry.mode, entry.path).toBe(entry.directory ? 0o700 : 0o600);
  });

  it("answers only a token signed with the key of --auth-jwt-key-file; the service runs on it with DATABASE_AUTH_TOKEN", async () => {
    const dir = await mkdtemp(join(tmpdir(), "sqld-auth-"));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const auth = sqldAuthIn(dir);
    const sqld = await startSqld({ authJwtKeyFile: auth.publicKeyFile });
    cleanup.push(() => sqld.close());
    const query = (token?: string) =>
      fetch(`${sqld.url}/v2/pipeline`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ requests: [{ type: "execute", stmt: { sql: "SELECT 1" } }, { type: "close" }] }),
      });
    expect((await query()).status).toBe(401);
    const stranger = sqldToken(generateKeyPairSync("ed25519").privateKey);
    expect((await query(stranger)).status).toBe(401);
    expect((await query(auth.token)).status).toBe(200);

    const t = await createTestApp({
      env: {
        DATABASE_URL: sqld.url,
        DATABASE_AUTH_TOKEN: auth.token,
        SERVER_SECRET: "sqld-auth-secret-sqld-auth-secret-xxxxxx",
        BOT_SIGNING_KEY: randomBytes(32).toString("base64url"),
      },
    });
    cleanup.push(() => t.close());
    await registerAgent(t);
  });
});
