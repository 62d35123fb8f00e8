import Database from "libsql";
import { backoffDelay, isBusyError, LOCK_BACKOFF, retryUntil, whileBusy } from "./lock-wait.ts";
import { type Row, type Sql, type SqlResult, type SqlStatement, type SqlTransaction, toStatement } from "./sql.ts";

type Connection = InstanceType<typeof Database>;
type Statement = ReturnType<Connection["prepare"]>;
/**
 * A prepared statement and, when it returns rows, their column names (asking the driver costs a
 * native call each time). Row-returning statements run in the driver's raw mode (rows as arrays) and
 * are named here: the driver builds a named row through a native call per column plus a timing
 * object, 45 µs for the 15-column token lookup against 25 µs as an array.
 */
interface Prepared {
  statement: Statement;
  columns: readonly string[] | null;
}

function prepareOn(connection: Connection, sql: string): Prepared {
  const statement = connection.prepare(sql);
  if (!statement.reader) return { statement, columns: null };
  statement.raw(true);
  return { statement, columns: statement.columns().map((column) => column.name) };
}

/** A raw row named by its columns; a later column of the same name wins, as in the driver's own rows. */
function named(columns: readonly string[], values: readonly unknown[]): Row {
  const row: Row = {};
  for (let index = 0; index < columns.length; index++) row[columns[index] as string] = values[index];
  return row;
}

const CACHE_LIMIT = 256;

interface QueuedWrite {
  statement: SqlStatement;
  resolve: (result: SqlResult) => void;
  reject: (error: unknown) => void;
  /** When it stops waiting for a lock held elsewhere (epoch ms) and fails with SQLITE_BUSY. */
  deadline: number;
}

const WRITE = /^\s*(?:INSERT|UPDATE|DELETE|REPLACE)\b/i;

/**
 * An embedded SQLite file through the `libsql` driver, with prepared statements cached per
 * connection. @libsql/client prepares every statement anew and reads its column metadata twice; on
 * the token lookup that was ~300 µs of a ~350 µs request, against ~50 µs for a cached statement.
 * The driver is synchronous, so a statement or a batch runs start to finish without interleaving.
 *
 * Single writes are group-committed: the writes that arrive in one turn of the event loop commit in
 * one transaction (each under its own savepoint, so one failing statement affects no other), and
 * each caller is answered after the commit. A commit cost ~45 µs of a ~60 µs insert.
 *
 * No call ever waits for a lock on the main thread: connections have no busy timeout, and a lock
 * held by another connection or process is waited for between turns of the event loop
 * (lock-wait.ts), up to `timeoutMs`, after which the call fails with SQLITE_BUSY (a 503).
 */
export class FileSql implements Sql {
  readonly #connection: Connection;
  readonly #cache = new Map<string, Prepared>();
  #queue: QueuedWrite[] = [];
  #flushPending = false;
  #lockWaits = 0;
  #flushTimer: NodeJS.Timeout | undefined;

  readonly path: string;
  readonly timeoutMs: number;

  constructor(path: string, timeoutMs: number) {
    this.path = path;
    this.timeoutMs = timeoutMs;
    this.#connection = new Database(path, { timeout: 0 });
  }

  /** Runs a synchronous step now, or, while another connection holds the lock, again after short waits. */
  #unlocked<T>(step: () => T): T | Promise<T> {
    try {
      return step();
    } catch (error) {
      if (!isBusyError(error)) throw error;
      return retryUntil(step, whileBusy, Date.now() + this.timeoutMs);
    }
  }

  #prepare(sql: string): Prepared {
    let prepared = this.#cache.get(sql);
    if (!prepared) {
      prepared = prepareOn(this.#connection, sql);
      if (this.#cache.size >= CACHE_LIMIT) this.#cache.delete(this.#cache.keys().next().value ?? "");
      this.#cache.set(sql, prepared);
    }
    return prepared;
  }

  #run(statement: SqlStatement): SqlResult {
    return runOn(this.#prepare(statement.sql), statement);
  }

  async execute(statement: SqlStatement | string): Promise<SqlResult> {
    const parsed = toStatement(statement);
    if (!WRITE.test(parsed.sql)) return this.#unlocked(() => this.#run(parsed));
    return new Promise((resolve, reject) => {
      this.#queue.push({ statement: parsed, resolve, reject, deadline: Date.now() + this.timeoutMs });
      if (!this.#flushPending) {
        this.#flushPending = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  async queryOne(statement: SqlStatement | string): Promise<Row | undefined> {
    const parsed = toStatement(statement);
    if (WRITE.test(parsed.sql)) return (await this.execute(parsed)).rows[0];
    const prepared = this.#prepare(parsed.sql);
    const { columns } = prepared;
    if (!columns) return (await this.#unlocked(() => runOn(prepared, parsed))).rows[0];
    const read = () => prepared.statement.get(bindable(parsed.args)) as unknown[] | undefined;
    // The token lookup runs here on every uncached request: no await unless the database is busy.
    const values = this.#unlocked(read);
    const row = values instanceof Promise ? await values : values;
    return row && named(columns, row);
  }

  /**
   * Commits the queued writes. While another connection holds the lock, the writes stay queued (new
   * ones join them) and the flush is tried again after a short wait; each write past its deadline
   * fails with SQLITE_BUSY.
   */
  #flush(): void {
    this.#flushPending = false;
    this.#flushTimer = undefined;
    if (this.#queue.length === 0) return;
    try {
      this.#connection.exec("BEGIN IMMEDIATE");
    } catch (error) {
      if (!isBusyError(error)) {
        for (const write of this.#queue.splice(0)) write.reject(error);
        return;
      }
      const now = Date.now();
      this.#queue = this.#queue.filter((write) => write.deadline > now || void write.reject(error));
      if (this.#queue.length > 0) {
        this.#flushPending = true;
        this.#flushTimer = setTimeout(() => this.#flush(), backoffDelay(LOCK_BACKOFF, this.#lockWaits++));
      }
      return;
    }
    this.#lockWaits = 0;
    const queue = this.#queue;
    this.#queue = [];
    const outcomes: ({ ok: true; result: SqlResult } | { ok: false; error: unknown })[] = [];
    for (const write of queue) {
      this.#connection.exec("SAVEPOINT write");
      try {
        outcomes.push({ ok: true, result: this.#run(write.statement) });
        this.#connection.exec("RELEASE write");
      } catch (error) {
        this.#connection.exec("ROLLBACK TO write");
        this.#connection.exec("RELEASE write");
        outcomes.push({ ok: false, error });
      }
    }
    try {
      this.#connection.exec("COMMIT");
    } catch (error) {
      if (this.#connection.inTransaction) this.#connection.exec("ROLLBACK");
      for (const write of queue) write.reject(error);
      return;
    }
    queue.forEach((write, index) => {
      const outcome = outcomes[index];
      if (outcome?.ok) write.resolve(outcome.result);
      else write.reject(outcome?.error);
    });
  }

  async batch(statements: readonly SqlStatement[], mode: "write" | "read" = "write"): Promise<SqlResult[]> {
    // Begun, run and committed in one synchronous step: nothing else uses the connection in between.
    return this.#unlocked(() => {
      this.#connection.exec(mode === "write" ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED");
      try {
        const results = statements.map((statement) => this.#run(statement));
        this.#connection.exec("COMMIT");
        return results;
      } catch (error) {
        if (this.#connection.inTransaction) this.#connection.exec("ROLLBACK");
        throw error;
      }
    });
  }

  async transaction(mode: "write" | "read" = "write"): Promise<SqlTransaction> {
    // Its own connection: the shared one must never be left inside a transaction across an await.
    const connection = new Database(this.path, { timeout: 0 });
    try {
      await this.#unlocked(() => connection.exec(mode === "write" ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED"));
    } catch (error) {
      connection.close();
      throw error;
    }
    let closed = false;
    const finish = (sql: string) => {
      if (closed) return;
      closed = true;
      try {
        if (connection.inTransaction) connection.exec(sql);
      } finally {
        connection.close();
      }
    };
    return {
      execute: async (statement) => runOn(prepareOn(connection, toStatement(statement).sql), toStatement(statement)),
      executeMultiple: async (sql) => void connection.exec(sql),
      commit: async () => finish("COMMIT"),
      rollback: async () => finish("ROLLBACK"),
      get closed() {
        return closed;
      },
    };
  }

  async executeMultiple(sql: string): Promise<void> {
    await this.#unlocked(() => void this.#connection.exec(sql));
  }

  close(): void {
    // Writes still queued get their answer before the connection goes: committed, or refused if
    // another connection still holds the lock.
    clearTimeout(this.#flushTimer);
    this.#flush();
    clearTimeout(this.#flushTimer);
    for (const write of this.#queue.splice(0)) write.reject(new Error("The database was closed before this write"));
    this.#cache.clear();
    if (this.#connection.open) this.#connection.close();
  }
}

/** The driver binds Buffers, not other Uint8Arrays. */
function bindable(args: SqlStatement["args"]): unknown[] {
  return (args ?? []).map((value) =>
    value instanceof Uint8Array && !Buffer.isBuffer(value) ? Buffer.from(value) : value,
  );
}

function runOn(prepared: Prepared, statement: SqlStatement): SqlResult {
  const args = bindable(statement.args);
  const { columns } = prepared;
  if (columns) {
    const rows = (prepared.statement.all(args) as unknown[][]).map((values) => named(columns, values));
    return { rows, rowsAffected: rows.length };
  }
  const info = prepared.statement.run(args) as { changes: number };
  return { rows: [], rowsAffected: info.changes };
}
