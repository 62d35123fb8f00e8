import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "libsql";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileSql } from "../../../api/db/file-sql.ts";

// The embedded driver against a lock held by another connection (as another process, a backup or a
// staff command would hold it): the event loop keeps turning while it waits.
let dir: string;
let path: string;
let holder: InstanceType<typeof Database>;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "lock-wait-"));
  path = join(dir, "service.db");
  const setup = new Database(path);
  setup.exec("PRAGMA journal_mode = WAL; CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)");
  setup.exec("INSERT INTO notes (text) VALUES ('before')");
  setup.close();
  holder = new Database(path);
});
afterEach(async () => {
  if (holder.inTransaction) holder.exec("ROLLBACK");
  holder.close();
  await rm(dir, { recursive: true, force: true });
});

/** Holds the write lock from another connection for `ms`, releasing it by commit. */
function holdLock(ms: number): Promise<void> {
  holder.exec("BEGIN EXCLUSIVE");
  return new Promise((resolve) =>
    setTimeout(() => {
      holder.exec("COMMIT");
      resolve();
    }, ms),
  );
}

/** The longest gap between ticks of a 5 ms interval while `work` runs: how long the event loop stood still. */
async function longestStall<T>(work: () => Promise<T>): Promise<{ stallMs: number; result: PromiseSettledResult<T> }> {
  let last = performance.now();
  let stallMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 5);
  const [result] = await Promise.allSettled([work()]);
  clearInterval(ticker);
  return { stallMs, result: result as PromiseSettledResult<T> };
}

describe("the embedded driver while another connection holds the write lock", () => {
  it("keeps the event loop turning, answers reads, and commits a waiting write once the lock is released", async () => {
    const sql = new FileSql(path, 5_000);
    const released = holdLock(600);
    const { stallMs, result } = await longestStall(async () => {
      const write = sql.execute({ sql: "INSERT INTO notes (text) VALUES (?)", args: ["waited"] });
      const read = await sql.execute("SELECT COUNT(*) AS n FROM notes");
      const one = await sql.queryOne("SELECT text FROM notes ORDER BY id LIMIT 1");
      return { written: await write, read: read.rows[0]?.n, one: one?.text };
    });
    await released;
    // A blocking wait stands the loop still for the whole 600 ms; a loaded machine adds tens of ms.
    expect(stallMs).toBeLessThan(300);
    expect(result.status).toBe("fulfilled");
    expect(result.status === "fulfilled" && result.value).toMatchObject({
      written: { rowsAffected: 1 },
      read: 1,
      one: "before",
    });
    expect((await sql.execute("SELECT text FROM notes ORDER BY id")).rows.map((row) => row.text)).toEqual([
      "before",
      "waited",
    ]);
    sql.close();
  });

  it("fails a write with SQLITE_BUSY at its deadline, without stalling, and commits nothing of it", async () => {
    const sql = new FileSql(path, 400);
    const released = holdLock(1_200);
    const started = performance.now();
    const { stallMs, result } = await longestStall(() =>
      sql.execute({ sql: "INSERT INTO notes (text) VALUES (?)", args: ["too late"] }),
    );
    const waitedMs = performance.now() - started;
    await released;
    expect(stallMs).toBeLessThan(300);
    expect(result.status).toBe("rejected");
    expect(result.status === "rejected" && (result.reason as { code?: string }).code).toBe("SQLITE_BUSY");
    expect(waitedMs).toBeGreaterThanOrEqual(390);
    expect(waitedMs).toBeLessThan(1_100);
    expect((await sql.execute("SELECT COUNT(*) AS n FROM notes WHERE text = 'too late'")).rows[0]?.n).toBe(0);
    sql.close();
  });

  it("waits for the lock in batches and interactive transactions without stalling", async () => {
    const sql = new FileSql(path, 5_000);
    const released = holdLock(500);
    const { stallMs, result } = await longestStall(async () => {
      const batch = sql.batch([{ sql: "INSERT INTO notes (text) VALUES ('batch')" }]);
      const transaction = await sql.transaction("write");
      await transaction.execute("INSERT INTO notes (text) VALUES ('transaction')");
      await transaction.commit();
      return batch;
    });
    await released;
    expect(stallMs).toBeLessThan(300);
    expect(result.status).toBe("fulfilled");
    expect((await sql.execute("SELECT text FROM notes ORDER BY text")).rows.map((row) => row.text).sort()).toEqual([
      "batch",
      "before",
      "transaction",
    ]);
    sql.close();
  });
});
