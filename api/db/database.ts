import { chmodSync, closeSync, mkdirSync, openSync, statSync } from "node:fs";
import { dirname } from "node:path";
import {
  BACKSTOP_CHECKPOINT_PAGES,
  type BackgroundCheckpoints,
  startBackgroundCheckpoints,
} from "./background-checkpoints.ts";
import { filePath } from "./database-path.ts";
import { FileSql } from "./file-sql.ts";
import { classifyRemoteFailure, RemoteSql } from "./remote-sql.ts";
import type { Sql } from "./sql.ts";

export interface DatabaseSettings {
  url: string;
  authToken: string | undefined;
  timeoutMs: number;
}

/** Errors that mean the database cannot be used right now (as opposed to a bug or a constraint). */
const UNAVAILABLE_CODES = new Set([
  "SQLITE_CANTOPEN",
  "SQLITE_IOERR",
  "SQLITE_FULL",
  "SQLITE_BUSY",
  "SQLITE_READONLY",
  "SQLITE_NOTADB",
  "SQLITE_CORRUPT",
  "CLIENT_CLOSED",
  "SERVER_ERROR",
  "HRANA_WEBSOCKET_ERROR",
  "HRANA_CLOSED_ERROR",
]);

export function isUnavailableError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code, extendedCode } = error as Error & { code?: string; extendedCode?: string };
  if (code && UNAVAILABLE_CODES.has(code)) return true;
  if (extendedCode && [...UNAVAILABLE_CODES].some((prefix) => extendedCode.startsWith(prefix))) return true;
  // A libSQL server that cannot be reached, dropped the connection, or did not answer in time.
  if (classifyRemoteFailure(error) !== "other") return true;
  return /ECONNREFUSED|ENOTFOUND|ETIMEDOUT|fetch failed/.test(error.message);
}

/**
 * The service's database. For an embedded file it also watches the file itself: a file removed or
 * replaced while open would otherwise keep taking writes into a deleted inode, so the probe reports
 * it unavailable, and reopens the client once a file is back.
 */
export class Database {
  #client: Sql;
  #inode: number | undefined;
  #checkpoints: BackgroundCheckpoints | undefined;
  readonly path: string | undefined;

  readonly settings: DatabaseSettings;

  constructor(settings: DatabaseSettings) {
    this.settings = settings;
    this.path = filePath(settings.url);
    if (this.path) {
      mkdirSync(dirname(this.path), { recursive: true });
      keepOwnerOnly(this.path);
    }
    this.#client = this.#open();
  }

  get client(): Sql {
    return this.#client;
  }

  #open(): Sql {
    const client = this.path
      ? new FileSql(this.path, this.settings.timeoutMs)
      : new RemoteSql(this.settings.url, this.settings.authToken, this.settings.timeoutMs);
    this.#inode = this.path ? inodeOf(this.path) : undefined;
    return client;
  }

  /**
   * Per-connection settings on the connection that serves every statement outside transactions.
   * A long-running server asks for checkpoints in the background every `checkpointEveryMs` (see
   * background-checkpoints.ts); short-lived commands leave them to SQLite (0).
   */
  async configure(checkpointEveryMs = 0): Promise<void> {
    if (!this.path) return;
    await this.#client.execute("PRAGMA journal_mode = WAL");
    await this.#client.execute("PRAGMA synchronous = NORMAL");
    await this.#client.execute("PRAGMA foreign_keys = ON");
    // Called again on a reopened file: the running checkpointer follows the path, only the pragma is new.
    if (checkpointEveryMs > 0)
      this.#checkpoints ??= startBackgroundCheckpoints(this.path, {
        intervalMs: checkpointEveryMs,
        timeoutMs: this.settings.timeoutMs,
      });
    if (this.#checkpoints) await this.#client.execute(`PRAGMA wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`);
  }

  /** The background checkpointer, when one runs. */
  get checkpoints(): BackgroundCheckpoints | undefined {
    return this.#checkpoints;
  }

  /**
   * Whether the database answers now. An embedded file that was replaced or came back is reopened
   * (`reopened`), so the caller can re-apply migrations to it.
   */
  async probe(): Promise<"ok" | "reopened" | "unavailable"> {
    let reopened = false;
    if (this.path) {
      const inode = inodeOf(this.path);
      if (inode === undefined) return "unavailable";
      if (inode !== this.#inode) {
        this.#client.close();
        this.#client = this.#open();
        reopened = true;
      }
    }
    try {
      if (reopened) await this.configure();
      await this.#client.execute("SELECT 1");
      return reopened ? "reopened" : "ok";
    } catch {
      return "unavailable";
    }
  }

  /** Closes the connection; the promise settles once the background checkpointer has stopped too. */
  close(): Promise<void> {
    const stopped = this.#checkpoints?.stop() ?? Promise.resolve();
    this.#checkpoints = undefined;
    this.#client.close();
    return stopped;
  }
}

function inodeOf(path: string): number | undefined {
  try {
    return statSync(path).ino;
  } catch {
    return undefined;
  }
}

/** Read and write for the owner only, as the secret file beside it (api/platform/secret-file.ts). */
export const OWNER_ONLY = 0o600;

/**
 * Creates the database file owner-only before SQLite opens it, so it never exists readable by
 * other users (it holds e-mail addresses and every order); SQLite gives its -wal and -shm files
 * the database file's mode. A file (or a -wal/-shm) that is looser is tightened, as the secret
 * file is; one this user does not own is left as it is (chmod is the owner's).
 */
function keepOwnerOnly(path: string): void {
  try {
    closeSync(openSync(path, "wx", OWNER_ONLY));
  } catch (error) {
    if (!(error instanceof Error && "code" in error && error.code === "EEXIST")) throw error;
  }
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, OWNER_ONLY);
    } catch (error) {
      if (!(error instanceof Error && "code" in error && (error.code === "ENOENT" || error.code === "EPERM")))
        throw error;
    }
  }
}
