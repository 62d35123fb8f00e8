import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RemoteSql } from "../../../api/db/remote-sql.ts";
import { type RunningSqld, startSqld } from "../../../scripts/lib/sqld.ts";

// Group commit against a real sqld: statements sent at once by different callers share one HTTP
// request and one transaction, and each caller still sees what it would see alone.
let sqld: RunningSqld;
let sql: RemoteSql;
beforeAll(async () => {
  sqld = await startSqld();
  sql = new RemoteSql(sqld.url, undefined, 5_000);
  await sql.executeMultiple(`
    CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
    CREATE TABLE ledger (n INTEGER NOT NULL);
    CREATE TABLE poison (n INTEGER NOT NULL);
    CREATE TABLE blobs (body BLOB NOT NULL);
    CREATE TRIGGER poison_rolls_back BEFORE INSERT ON poison WHEN NEW.n < 0
      BEGIN SELECT RAISE(ROLLBACK, 'negative poison'); END;
  `);
});
afterAll(async () => {
  sql?.close();
  await sqld?.close();
});

const count = async (table: "items" | "ledger" | "poison" | "blobs") =>
  Number((await sql.queryOne(`SELECT COUNT(*) AS n FROM ${table}`))?.n);

/** Requests that reached sqld while `work` ran. */
async function tripsOf(work: () => Promise<unknown>): Promise<number> {
  const before = sql.roundTrips;
  await work();
  return sql.roundTrips - before;
}

describe("statements sent at once over HTTP", () => {
  it("leave together: fifty writes and fifty reads from fifty callers take a few requests, not a hundred", async () => {
    const trips = await tripsOf(() =>
      Promise.all(
        Array.from({ length: 50 }, (_, n) =>
          Promise.all([
            sql.execute({ sql: "INSERT INTO ledger (n) VALUES (?)", args: [n] }),
            sql.execute({ sql: "SELECT COUNT(*) AS n FROM ledger" }),
          ]),
        ),
      ),
    );
    expect(trips).toBeLessThanOrEqual(3);
    expect(await count("ledger")).toBe(50);
  });

  it("split what would make one request too large: four 600 kB values leave in four requests", async () => {
    const body = new Uint8Array(600_000).fill(7);
    const trips = await tripsOf(() =>
      Promise.all(
        Array.from({ length: 4 }, () => sql.execute({ sql: "INSERT INTO blobs (body) VALUES (?)", args: [body] })),
      ),
    );
    expect(trips).toBe(4);
    expect(await count("blobs")).toBe(4);
  });

  it("fail alone: a statement that breaks a constraint gets its error, the others in its request commit", async () => {
    await sql.execute({ sql: "INSERT INTO items (name) VALUES ('taken')" });
    const outcomes = await Promise.allSettled([
      sql.execute({ sql: "INSERT INTO items (name) VALUES ('first')" }),
      sql.execute({ sql: "INSERT INTO items (name) VALUES ('taken')" }),
      sql.execute({ sql: "INSERT INTO items (name) VALUES ('second') RETURNING name" }),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const refused = outcomes[1];
    expect(refused?.status === "rejected" && String(refused.reason)).toMatch(/UNIQUE constraint failed/);
    const returned = outcomes[2];
    expect(returned?.status === "fulfilled" && returned.value.rows).toEqual([{ name: "second" }]);
    expect(await count("items")).toBe(3);
  });

  it("keep a batch all or nothing: one failing statement undoes the batch's others, not its neighbours'", async () => {
    const before = await count("items");
    const [batch, neighbour] = await Promise.allSettled([
      sql.batch([
        { sql: "INSERT INTO items (name) VALUES ('batch-one')" },
        { sql: "INSERT INTO items (name) VALUES ('taken')" },
      ]),
      sql.execute({ sql: "INSERT INTO items (name) VALUES ('neighbour')" }),
    ]);
    expect(batch?.status).toBe("rejected");
    expect(neighbour?.status).toBe("fulfilled");
    const names = (await sql.execute("SELECT name FROM items")).rows.map((row) => row.name);
    expect(names).toContain("neighbour");
    expect(names).not.toContain("batch-one");
    expect(await count("items")).toBe(before + 1);
  });

  it("acknowledge nothing that did not commit: a statement that rolls the whole transaction back takes no one else's write with it", async () => {
    // RAISE(ROLLBACK) ends the shared transaction: the writes sent with it are not applied, so the
    // driver sends them again in a transaction of their own, and acknowledges them only then.
    const before = await count("ledger");
    const outcomes = await Promise.allSettled([
      sql.execute({ sql: "INSERT INTO ledger (n) VALUES (1)" }),
      sql.execute({ sql: "INSERT INTO poison (n) VALUES (-1)" }),
      sql.execute({ sql: "INSERT INTO ledger (n) VALUES (2)" }),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(await count("ledger")).toBe(before + 2);
    expect(await count("poison")).toBe(0);
  });
});
