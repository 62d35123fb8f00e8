import Database from "libsql";
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
 */
export class FileSql implements Sql {
  readonly #connection: Connection;
  readonly #cache = new Map<string, Prepared>();
  #queue: QueuedWrite[] = [];

  constructor(
    readonly path: string,
    readonly timeoutMs: number,
  ) {
    this.#connection = new Database(path, { timeout: timeoutMs });
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
    if (!WRITE.test(parsed.sql)) return this.#run(parsed);
    return new Promise((resolve, reject) => {
      if (this.#queue.length === 0) setImmediate(() => this.#flush());
      this.#queue.push({ statement: parsed, resolve, reject });
    });
  }

  async queryOne(statement: SqlStatement | string): Promise<Row | undefined> {
    const parsed = toStatement(statement);
    if (WRITE.test(parsed.sql)) return (await this.execute(parsed)).rows[0];
    const prepared = this.#prepare(parsed.sql);
    if (!prepared.columns) return runOn(prepared, parsed).rows[0];
    const values = prepared.statement.get(bindable(parsed.args)) as unknown[] | undefined;
    return values && named(prepared.columns, values);
  }

  #flush(): void {
    const queue = this.#queue;
    this.#queue = [];
    if (queue.length === 0) return;
    try {
      this.#connection.exec("BEGIN IMMEDIATE");
    } catch (error) {
      for (const write of queue) write.reject(error);
      return;
    }
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
    this.#connection.exec(mode === "write" ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED");
    try {
      const results = statements.map((statement) => this.#run(statement));
      this.#connection.exec("COMMIT");
      return results;
    } catch (error) {
      if (this.#connection.inTransaction) this.#connection.exec("ROLLBACK");
      throw error;
    }
  }

  async transaction(mode: "write" | "read" = "write"): Promise<SqlTransaction> {
    // Its own connection: the shared one must never be left inside a transaction across an await.
    const connection = new Database(this.path, { timeout: this.timeoutMs });
    connection.exec(mode === "write" ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED");
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
    this.#connection.exec(sql);
  }

  close(): void {
    // Writes still queued get their answer before the connection goes.
    this.#flush();
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
