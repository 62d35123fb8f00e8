import { createRequire } from "node:module";
import type * as LibsqlClient from "@libsql/client";
import type { Client, InStatement, InValue } from "@libsql/client";
import type * as Hrana from "@libsql/hrana-client";
import { type Backoff, isBusyError, retryUntil } from "./lock-wait.ts";
import { PipelineUnsupported } from "./pipeline-steps.ts";
import {
  type Row,
  type Sql,
  type SqlResult,
  type SqlStatement,
  type SqlTransaction,
  serverResult,
  toStatement,
} from "./sql.ts";
import { StatementPipeline } from "./statement-pipeline.ts";

// Loaded when a remote database is opened: an embedded file never needs their ~50 modules.
const load = createRequire(import.meta.url);
const libsqlClient = () => load("@libsql/client") as typeof LibsqlClient;
const hranaClient = () => load("@libsql/hrana-client") as typeof Hrana;

/**
 * The HTTP address of a libSQL server's Hrana API for `url`, or null for a WebSocket URL (whose
 * transport multiplexes on its own). `libsql://` is HTTPS unless `?tls=0`, as @libsql/client reads it.
 */
function hranaHttpUrl(url: string): URL | null {
  const parsed = new URL(url);
  const plain = parsed.searchParams.get("tls") === "0";
  parsed.search = "";
  if (parsed.protocol === "libsql:") return new URL(`${plain ? "http" : "https"}://${parsed.host}${parsed.pathname}`);
  return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed : null;
}

function toInStatement(statement: SqlStatement | string): InStatement {
  const { sql, args } = toStatement(statement);
  const values: InValue[] = [...(args ?? [])];
  return { sql, args: values };
}

function toResult(result: LibsqlClient.ResultSet): SqlResult {
  return serverResult(result.columns, result.rows, result.rowsAffected);
}

/** Failures where the request never reached the server: nothing ran, so anything may be sent again. */
const NOT_SENT = new Set([
  "PIPELINE_NOT_APPLIED",
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);
/** Failures after the request may have reached the server: a write may have committed. */
const MAYBE_SENT = new Set([
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "HRANA_WEBSOCKET_ERROR",
  "HRANA_CLOSED_ERROR",
  "SERVER_ERROR",
  // The same, as the Hrana client names them when it is used directly (statement-pipeline.ts).
  "HttpServerError",
  "ProtoError",
]);

/** The `code`s and names along an error's chain of causes (fetch wraps the socket's error). */
function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    const { code } = current as Error & { code?: unknown };
    if (typeof code === "string") codes.push(code);
    codes.push(current.name);
  }
  return codes;
}

export type RemoteFailure = "busy" | "not-sent" | "maybe-sent" | "other";

/** What a failed call to a libSQL server means for sending it again. */
export function classifyRemoteFailure(error: unknown): RemoteFailure {
  if (isBusyError(error)) return "busy";
  const codes = codesOf(error);
  if (codes.some((code) => NOT_SENT.has(code))) return "not-sent";
  // A request that ran out of time (our own timeout below) may have been applied by the server.
  if (codes.some((code) => MAYBE_SENT.has(code) || code === "TimeoutError" || code === "AbortError"))
    return "maybe-sent";
  return "other";
}

const READ = /^\s*SELECT\b/i;
const PRAGMA = /^\s*PRAGMA\b/i;

/**
 * How long a server that does not answer is retried: long enough to ride out a restart of sqld or a
 * dropped connection, short enough that a request answers 503 well within a client's patience.
 */
const UNREACHABLE_BUDGET_MS = 1_500;
const UNREACHABLE_BACKOFF: Backoff = { firstMs: 50, capMs: 400 };
/** sqld waits for its own locks; a busy answer is rare, and retried sooner. */
const BUSY_BACKOFF: Backoff = { firstMs: 5, capMs: 100 };

/**
 * A libSQL server (sqld, Turso) over `http(s)://` (what `libsql://` means to @libsql/client) or
 * `ws(s)://`. Every request is bounded by `timeoutMs`, so a server that stops answering turns into
 * an error (a 503), never a hung request. A failed call is sent again, with backoff:
 * - SQLITE_BUSY, up to `timeoutMs`: the statement did not run;
 * - a connection that could not be made, for about 1.5 s: the request never left;
 * - a connection lost after sending, or a timeout, only for what may safely run twice (reads, a
 *   read batch, statements marked `idempotent`): a write there may have committed, and running it
 *   again would count twice.
 */
export class RemoteSql implements Sql {
  readonly #client: Client;
  /** Statements and batches over HTTP, sent together with other requests' (statement-pipeline.ts); null over ws:// or Hrana 2. */
  #pipeline: StatementPipeline | null;
  #roundTrips = 0;

  readonly timeoutMs: number;

  constructor(url: string, authToken: string | undefined, timeoutMs: number = 5_000) {
    this.timeoutMs = timeoutMs;
    const send = (request: Request) => {
      this.#roundTrips++;
      // sqld gzips every answer unless told not to: on its few hundred bytes, compressing and
      // inflating cost both processes more than the bytes (a tenth of an instance's CPU under load).
      request.headers.set("accept-encoding", "identity");
      return fetch(request, { signal: AbortSignal.timeout(this.timeoutMs) });
    };
    // Used by the HTTP transport (one request per call: here, transactions); ws:// ignores it.
    this.#client = libsqlClient().createClient({ url, authToken, fetch: send });
    const httpUrl = hranaHttpUrl(url);
    const hrana = httpUrl ? hranaClient() : null;
    const jwt = authToken ?? new URL(url).searchParams.get("authToken") ?? undefined;
    // Protocol 3: the pipeline's steps run only while its transaction is open (is_autocommit).
    this.#pipeline =
      httpUrl && hrana
        ? new StatementPipeline(hrana, () => hrana.openHttp(httpUrl, jwt, send, undefined, 3), timeoutMs)
        : null;
  }

  /** HTTP requests sent to the server so far: the database round trips of this instance. */
  get roundTrips(): number {
    return this.#roundTrips;
  }

  async #send<T>(call: () => Promise<T>, safeToRepeat: boolean): Promise<T> {
    const started = Date.now();
    const retry = (error: unknown): Backoff | null => {
      const failure = classifyRemoteFailure(error);
      if (failure === "busy") return BUSY_BACKOFF;
      const unreachable = failure === "not-sent" || (failure === "maybe-sent" && safeToRepeat);
      return unreachable && Date.now() - started < UNREACHABLE_BUDGET_MS ? UNREACHABLE_BACKOFF : null;
    };
    return retryUntil(call, retry, started + this.timeoutMs);
  }

  /** A call through the pipeline, or undefined when the server cannot take one (Hrana 2): then every call goes alone. */
  async #grouped<T>(call: () => Promise<T>): Promise<T | undefined> {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof PipelineUnsupported)) throw error;
      this.#pipeline = null;
      return undefined;
    }
  }

  async execute(statement: SqlStatement | string): Promise<SqlResult> {
    const parsed = toStatement(statement);
    const kind = READ.test(parsed.sql) ? "read" : "write";
    const safe = kind === "read" || parsed.idempotent === true;
    const pipeline = PRAGMA.test(parsed.sql) ? null : this.#pipeline;
    if (pipeline) {
      const result = await this.#grouped(() => this.#send(() => pipeline.execute(parsed, kind), safe));
      if (result) return result;
    }
    return toResult(await this.#send(() => this.#client.execute(toInStatement(parsed)), safe));
  }

  async queryOne(statement: SqlStatement | string): Promise<Row | undefined> {
    return (await this.execute(statement)).rows[0];
  }

  async batch(statements: readonly SqlStatement[], mode: "write" | "read" = "write"): Promise<SqlResult[]> {
    const safe = mode === "read" || statements.every((statement) => READ.test(statement.sql) || statement.idempotent);
    // A pragma would outlive its batch in the shared transaction (defer_foreign_keys lasts to COMMIT).
    const pipeline = statements.some((statement) => PRAGMA.test(statement.sql)) ? null : this.#pipeline;
    if (pipeline) {
      const results = await this.#grouped(() => this.#send(() => pipeline.batch(statements, mode), safe));
      if (results) return results;
    }
    const results = await this.#send(() => this.#client.batch(statements.map(toInStatement), mode), safe);
    return results.map(toResult);
  }

  async transaction(mode: "write" | "read" = "write"): Promise<SqlTransaction> {
    // Only opening it is retried: a statement inside belongs to a server-side transaction that a
    // lost connection ends, so the caller starts over.
    const transaction = await this.#send(() => this.#client.transaction(mode), true);
    return {
      execute: async (statement) => toResult(await transaction.execute(toInStatement(statement))),
      executeMultiple: (sql) => transaction.executeMultiple(sql),
      commit: () => transaction.commit(),
      rollback: () => transaction.rollback(),
      get closed() {
        return transaction.closed;
      },
    };
  }

  executeMultiple(sql: string): Promise<void> {
    return this.#send(() => this.#client.executeMultiple(sql), false);
  }

  close(): void {
    this.#client.close();
    this.#pipeline?.close();
  }
}
