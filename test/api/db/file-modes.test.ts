import { chmodSync, existsSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Database } from "../../../api/db/database.ts";
import { migrate } from "../../../api/db/migrate.ts";
import { backupCommand } from "../../../scripts/admin/backup.ts";
import { runAdminCommand } from "../../helpers/admin-cli.ts";

let dir: string;
let umask: number;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "file-modes-"));
  // The usual umask, which leaves new files readable by every user (0644): what the files must not get.
  umask = process.umask(0o022);
});
afterAll(async () => {
  process.umask(umask);
  await rm(dir, { recursive: true, force: true });
});
const opened: Database[] = [];
afterEach(() => {
  for (const database of opened.splice(0)) database.close();
});

const modeOf = (file: string) => statSync(file).mode & 0o777;
/** The file and whichever of its -wal and -shm exist, each with its mode. */
const modesOf = (file: string) =>
  Object.fromEntries([file, `${file}-wal`, `${file}-shm`].filter(existsSync).map((path) => [path, modeOf(path)]));

async function openWritten(file: string): Promise<Database> {
  const database = new Database({ url: `file:${file}`, authToken: undefined, timeoutMs: 5_000 });
  opened.push(database);
  await database.configure();
  await migrate(database.client);
  await database.client.execute({
    sql: "INSERT INTO settings (key, value, updated_at) VALUES ('probe', 'x', 'now') ON CONFLICT DO NOTHING",
  });
  return database;
}

describe("the database and its backups on disk", () => {
  it("creates the database file and its -wal and -shm readable by their owner only", async () => {
    const file = join(dir, "new", "service.db");
    await openWritten(file);
    const modes = modesOf(file);
    expect(Object.keys(modes)).toHaveLength(3);
    expect(Object.values(modes)).toEqual([0o600, 0o600, 0o600]);
  });

  it("tightens a database file an older version left readable by every user", async () => {
    const file = join(dir, "old", "service.db");
    (await openWritten(file)).close();
    opened.length = 0;
    chmodSync(file, 0o644);
    await openWritten(file);
    expect(Object.values(modesOf(file)).every((mode) => mode === 0o600)).toBe(true);
  });

  it("writes an `admin backup` copy readable by its owner only", async () => {
    const file = join(dir, "backed-up", "service.db");
    (await openWritten(file)).close();
    opened.length = 0;
    Object.assign(process.env, { NODE_ENV: "test", LOG_LEVEL: "silent", DATABASE_URL: `file:${file}` });
    const copy = join(dir, "backups", "copy.db");
    const run = await runAdminCommand(backupCommand, copy);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const modes = modesOf(copy);
    expect(Object.keys(modes).length).toBeGreaterThan(0);
    expect(Object.values(modes).every((mode) => mode === 0o600)).toBe(true);
  });
});
