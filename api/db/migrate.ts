import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Sql } from "./sql.ts";

const MIGRATIONS_DIR = join(import.meta.dirname, "migrations");

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export async function readMigrations(dir: string = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file)).sort();
  return Promise.all(
    files.map(async (file) => ({
      version: Number(file.slice(0, 4)),
      name: file.slice(5, -4),
      sql: await readFile(join(dir, file), "utf8"),
    })),
  );
}

/**
 * Applies the numbered migrations not yet recorded, each in its own write transaction with its
 * record, so two instances starting at once apply each migration exactly once (the second waits
 * for the lock, then finds it recorded).
 */
export async function migrate(client: Sql, migrations?: Migration[]): Promise<number[]> {
  await client.executeMultiple(
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
  );
  const recorded = new Set(
    (await client.execute("SELECT version FROM schema_migrations")).rows.map((row) => Number(row.version)),
  );
  // Only a pending migration opens a write transaction: the usual start (and a reopened file) takes no lock.
  const pending = (migrations ?? (await readMigrations())).filter((migration) => !recorded.has(migration.version));
  const applied: number[] = [];
  for (const migration of pending) {
    const transaction = await client.transaction("write");
    try {
      const done = await transaction.execute({
        sql: "SELECT 1 FROM schema_migrations WHERE version = ?",
        args: [migration.version],
      });
      if (done.rows.length > 0) {
        await transaction.rollback();
        continue;
      }
      await transaction.executeMultiple(migration.sql);
      await transaction.execute({
        sql: "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
        args: [migration.version, migration.name, new Date().toISOString()],
      });
      await transaction.commit();
      applied.push(migration.version);
    } catch (error) {
      if (!transaction.closed) await transaction.rollback();
      throw error;
    }
  }
  return applied;
}

export async function schemaVersion(client: Sql): Promise<number> {
  const result = await client.execute("SELECT COALESCE(MAX(version), 0) AS version FROM schema_migrations");
  return Number(result.rows[0]?.version ?? 0);
}
