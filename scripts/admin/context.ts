import { type Config, ConfigError, loadConfig } from "../../api/config.ts";
import { Database } from "../../api/db/database.ts";
import { migrate } from "../../api/db/migrate.ts";
import type { Sql } from "../../api/db/sql.ts";
import { type LookupKeys, loadLookupKeys } from "../../api/platform/credentials/lookup-keys.ts";
import { loadSecretRing, type SecretRing } from "../../api/platform/secret-ring.ts";
import { rewriteLegacyCredentials } from "../../api/wiring/credential-rewrite.ts";
import { complain, say, sayJson, shown } from "./terminal.ts";

export interface AdminContext {
  config: Config;
  client: Sql;
  /** The database itself: where its server secret file is, for an embedded one. */
  database: Database;
  /** The server secret ring, read when a command first needs it (a remote database needs SERVER_SECRET then). */
  secrets: () => Promise<SecretRing>;
  /** The database's lookup key, for commands that find a purchase or a report by its id. */
  lookupKeys: () => Promise<LookupKeys>;
}

/** `load` once, on first call. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    loaded ??= load();
    return loaded;
  };
}

/**
 * Opens the database named by DATABASE_URL (applying migrations), runs `task`, closes it. A
 * mistake staff can fix (a bad argument, bad configuration) prints one line and exits 1.
 */
export function withDatabase(task: (context: AdminContext) => Promise<void>): Promise<void> {
  return withConfig(async (config) => {
    const database = new Database(config.database);
    try {
      await database.configure();
      await migrate(database.client);
      const secrets = once(() => loadSecretRing(database, config));
      const lookupKeys = once(async () => loadLookupKeys(database.client, await secrets()));
      // Migration 0005's second step, so no staff command (a backup above all) sees a stored credential.
      await rewriteLegacyCredentials(database.client, lookupKeys);
      await task({ config, client: database.client, database, secrets, lookupKeys });
    } finally {
      database.close();
    }
  });
}

/** Runs `task` with the parsed configuration; a mistake staff can fix (a bad argument, bad configuration) prints one line and exits 1. */
export async function withConfig(task: (config: Config) => Promise<void> | void): Promise<void> {
  try {
    await task(loadConfig());
  } catch (error) {
    if (!(error instanceof AdminError || error instanceof ConfigError)) throw error;
    complain(error.message);
    process.exitCode = 1;
  }
}

/** Prints rows as an aligned plain-text table (or JSON lines for scripts). */
/** Any row object as a record of its own fields (rows come typed from the SQL modules). */
export function fieldsOf(row: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row));
}

export function printRows(typed: readonly object[], json: boolean): void {
  const rows = typed.map(fieldsOf);
  if (json) {
    sayJson(rows);
    return;
  }
  if (rows.length === 0) {
    say("(none)");
    return;
  }
  const columns = Object.keys(rows[0] ?? {});
  const cell = (value: unknown) =>
    value === null || value === undefined ? "-" : shown(Array.isArray(value) ? value.join(",") : String(value));
  const widths = columns.map((column) => Math.max(column.length, ...rows.map((row) => cell(row[column]).length)));
  const line = (values: string[]) =>
    values
      .map((value, index) => value.padEnd(widths[index] ?? 0))
      .join("  ")
      .trimEnd();
  say(line(columns));
  for (const row of rows) say(line(columns.map((column) => cell(row[column]))));
}

/** A mistake in how a command was called; its message is all staff need to see. */
export class AdminError extends Error {}
