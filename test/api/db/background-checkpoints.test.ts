import { existsSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Database } from "../../../api/db/database.ts";

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function openDatabase(checkpointEveryMs?: number): Promise<{ database: Database; path: string }> {
  const dir = await mkdtemp(join(tmpdir(), "checkpoints-"));
  dirs.push(dir);
  const path = join(dir, "service.db");
  const database = new Database({ url: `file:${path}`, authToken: undefined, timeoutMs: 5_000 });
  await database.configure(checkpointEveryMs);
  await database.client.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
  return { database, path };
}

/** About 8 MB of rows in many small commits: well past SQLite's own 1,000-page checkpoint. */
async function writeRows(database: Database): Promise<void> {
  const body = "x".repeat(4_000);
  await Promise.all(
    Array.from({ length: 2_000 }, (_, index) =>
      database.client.execute({ sql: "INSERT INTO notes (id, body) VALUES (?, ?)", args: [index, body] }),
    ),
  );
}

async function waitFor(condition: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

describe("checkpoints in the background", () => {
  it("copy the log into the database file from the worker, not from the serving connection", async () => {
    const { database, path } = await openDatabase(2_000);
    await writeRows(database);
    // The serving connection leaves the log alone below its backstop, so the file has not grown yet.
    expect(statSync(path).size).toBeLessThan(1_000_000);
    expect(await waitFor(() => statSync(path).size > 8_000_000, 6_000)).toBe(true);
    expect(await waitFor(() => (database.checkpoints?.passes ?? 0) > 0, 2_000)).toBe(true);
    expect((await database.client.queryOne("SELECT count(*) AS n FROM notes"))?.n).toBe(2_000);
    database.close();
  });

  it("are SQLite's own, on the serving connection, when not asked for", async () => {
    const { database, path } = await openDatabase();
    await writeRows(database);
    expect(database.checkpoints).toBeUndefined();
    expect(statSync(path).size).toBeGreaterThan(4_000_000);
    database.close();
  });

  it("never create a database file that was removed", async () => {
    const { database, path } = await openDatabase(100);
    await writeRows(database);
    await rm(path);
    await rm(`${path}-wal`, { force: true });
    await rm(`${path}-shm`, { force: true });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(existsSync(path)).toBe(false);
    database.close();
  });
});
