/** The subset of SQL access the repositories use; one implementation per kind of database URL. */
export type SqlValue = string | number | bigint | null | Uint8Array;
export type Row = Record<string, unknown>;

export interface SqlStatement {
  sql: string;
  args?: readonly SqlValue[];
  /**
   * Running it twice leaves the same rows and the same answer as running it once. A remote driver
   * may then send it again after a connection lost mid-request, when it cannot know whether the
   * server applied it; any other write fails instead (remote-sql.ts).
   */
  idempotent?: true;
}

export interface SqlResult {
  rows: Row[];
  /** Rows changed by a write; for a write with RETURNING, the rows returned. */
  rowsAffected: number;
}

export interface SqlTransaction {
  execute(statement: SqlStatement | string): Promise<SqlResult>;
  executeMultiple(sql: string): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  readonly closed: boolean;
}

export interface Sql {
  execute(statement: SqlStatement | string): Promise<SqlResult>;
  /** The first row of a query, or `undefined`: cheaper than `execute` when one row is wanted. */
  queryOne(statement: SqlStatement | string): Promise<Row | undefined>;
  /** Runs the statements atomically: all of them or none. */
  batch(statements: readonly SqlStatement[], mode?: "write" | "read"): Promise<SqlResult[]>;
  /**
   * An interactive transaction on its own connection (`BEGIN IMMEDIATE` for writes). Keep these off
   * hot paths: a batch or a single statement holds every invariant there.
   */
  transaction(mode?: "write" | "read"): Promise<SqlTransaction>;
  executeMultiple(sql: string): Promise<void>;
  close(): void;
}

export function toStatement(statement: SqlStatement | string): SqlStatement {
  return typeof statement === "string" ? { sql: statement } : statement;
}

/**
 * A libSQL server's answer as plain rows: its rows are array-likes (@libsql/client's and the Hrana
 * client's alike), read by column index; a write with RETURNING counts the rows it returned.
 */
export function serverResult(
  columns: readonly (string | undefined)[],
  rows: readonly ArrayLike<unknown>[],
  affected: number,
): SqlResult {
  const names = columns.map((name) => name ?? "");
  const plain = rows.map((row) => Object.fromEntries(names.map((name, index) => [name, row[index]])) as Row);
  return { rows: plain, rowsAffected: affected || plain.length };
}

/** A BLOB column as bytes: a Buffer from the file driver, an ArrayBuffer from a libSQL server. */
export function bytesOf(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  throw new TypeError("expected a BLOB column");
}
