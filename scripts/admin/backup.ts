import { closeSync, openSync } from "node:fs";
import { mkdir, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { defineCommand } from "citty";
import { loadConfig } from "../../api/config.ts";
import { OWNER_ONLY } from "../../api/db/database.ts";
import { FileSql } from "../../api/db/file-sql.ts";
import { secretFileFor } from "../../api/platform/secret-file.ts";
import { AdminError, withDatabase } from "./context.ts";
import { complain, say } from "./terminal.ts";

/**
 * `VACUUM INTO` writes a consistent snapshot from one read transaction, so servers keep reading and
 * writing while it runs (a plain file copy of a WAL database can catch it between a write and its
 * checkpoint). The copy is then opened on its own and checked.
 */
/** DATABASE_URL as the configuration reads it; a bad configuration is reported when connecting. */
function databaseUrl(): string {
  try {
    return loadConfig().database.url;
  } catch {
    return "file:";
  }
}

export const backupCommand = defineCommand({
  meta: {
    name: "backup",
    description:
      "Write a consistent copy of the embedded database (DATABASE_URL=file:…) while the servers keep running, and check the copy.",
  },
  args: { file: { type: "positional", description: "The new file to write; it must not exist", required: true } },
  run: ({ args }) => {
    // Decided before connecting: a remote server is not ours to copy (and may not even answer).
    if (!databaseUrl().startsWith("file:")) {
      complain(
        [
          "backup copies an embedded database (DATABASE_URL=file:…); back up a libSQL server with its own tools.",
          "Over the network it can neither snapshot the server's files nor promise a consistent copy of a database other instances keep writing, so it copies nothing here.",
          "Instead: a hosted service's point-in-time restore, or sqld's --db-path directory copied while sqld is stopped (see /docs/operations/runbook#backups).",
        ].join("\n"),
      );
      process.exitCode = 1;
      return;
    }
    return withDatabase(async ({ client, config, database }) => {
      const target = resolve(String(args.file));
      await mkdir(dirname(target), { recursive: true });
      // Created empty and owner-only before SQLite writes into it (VACUUM INTO takes an empty
      // file), so the copy is never readable by other users, not even while it is written.
      try {
        closeSync(openSync(target, "wx", OWNER_ONLY));
      } catch (error) {
        if (error instanceof Error && "code" in error && error.code === "EEXIST")
          throw new AdminError(`${target} exists; name a new file, so no backup is ever overwritten`);
        throw error;
      }
      const started = Date.now();
      await client.execute({ sql: "VACUUM INTO ?", args: [target] });
      const copy = new FileSql(target, 5_000);
      try {
        const integrity = (await copy.execute("PRAGMA integrity_check")).rows.map((row) =>
          String(Object.values(row)[0]),
        );
        if (integrity.join() !== "ok")
          throw new AdminError(`The copy at ${target} failed its integrity check: ${integrity.slice(0, 5).join("; ")}`);
        const tables = Number(
          (await copy.execute("SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table'")).rows[0]?.n ?? 0,
        );
        const megabytes = (await stat(target)).size / 2 ** 20;
        say(
          `Wrote ${target}: ${megabytes.toFixed(1)} MB, ${tables} tables, integrity ok, in ${Date.now() - started} ms.`,
        );
        // On purpose: a copy of the data must not be able to sign download links or credit codes.
        say(
          config.serverSecret || !database.path
            ? "The copy holds no server secret: keep SERVER_SECRET in your secret store."
            : `The copy holds no server secret: back up ${secretFileFor(database.path)} separately; without it the copy's credit codes and links cannot be verified.`,
        );
        // Nor anything a client presents: see the runbook's "Backups" for each kind of credential.
        say(
          "It holds no credential either: checkout session ids and report ids only as keyed hashes, tokens and credit codes only as hashes, download links not at all.",
        );
      } finally {
        copy.close();
      }
    });
  },
});
