import { type Client, createClient, type InStatement, type InValue } from "@libsql/client";
import { type Row, type Sql, type SqlResult, type SqlStatement, type SqlTransaction, toStatement } from "./sql.ts";

function toInStatement(statement: SqlStatement | string): InStatement {
  const { sql, args } = toStatement(statement);
  const values: InValue[] = [...(args ?? [])];
  return { sql, args: values };
}

function toResult(result: { rows: readonly unknown[]; rowsAffected: number; columns: readonly string[] }): SqlResult {
  // @libsql/client rows are array-likes with named properties; copy them into plain objects.
  const rows = result.rows.map(
    (row) =>
      Object.fromEntries(result.columns.map((column) => [column, (row as Record<string, unknown>)[column]])) as Row,
  );
  return { rows, rowsAffected: result.rowsAffected || rows.length };
}

/** A libSQL server (sqld, Turso) over `libsql://` or `https://`, through @libsql/client. */
export class RemoteSql implements Sql {
  readonly #client: Client;

  constructor(url: string, authToken: string | undefined) {
    this.#client = createClient({ url, authToken });
  }

  async execute(statement: SqlStatement | string): Promise<SqlResult> {
    return toResult(await this.#client.execute(toInStatement(statement)));
  }

  async queryOne(statement: SqlStatement | string): Promise<Row | undefined> {
    return (await this.execute(statement)).rows[0];
  }

  async batch(statements: readonly SqlStatement[], mode: "write" | "read" = "write"): Promise<SqlResult[]> {
    return (await this.#client.batch(statements.map(toInStatement), mode)).map(toResult);
  }

  async transaction(mode: "write" | "read" = "write"): Promise<SqlTransaction> {
    const transaction = await this.#client.transaction(mode);
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
    return this.#client.executeMultiple(sql);
  }

  close(): void {
    this.#client.close();
  }
}
