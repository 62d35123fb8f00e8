import type * as Hrana from "@libsql/hrana-client";
import { isBusyError } from "./lock-wait.ts";
import { type SqlResult, type SqlStatement, serverResult } from "./sql.ts";

// The steps one caller's work adds to a group-commit transaction (statement-pipeline.ts), and how
// its outcome is read once the server has answered.

/** Adds a job's steps to the pipeline's batch; what it gives back reads its result once the batch ran (undefined: not run). */
export type AddSteps<T> = (batch: Hrana.Batch, open: Hrana.BatchCond, index: number) => () => Promise<T | undefined>;

/** One statement, run while the transaction is open (`open`). */
export function statementSteps(
  hrana: typeof Hrana,
  batch: Hrana.Batch,
  open: Hrana.BatchCond,
  statement: SqlStatement,
): () => Promise<SqlResult | undefined> {
  const result = batch.step().condition(open).query(stmt(hrana, statement));
  // Read once the batch ran; until then a rejection must not count as unhandled.
  result.catch(() => undefined);
  return async () => {
    const rows = await result;
    return rows === undefined ? undefined : toResult(rows);
  };
}

/**
 * Statements inside a savepoint of their own: each runs only if the one before it did, the
 * savepoint is released when all ran, and rolled back to (then released) when one failed.
 */
export function batchSteps(
  hrana: typeof Hrana,
  batch: Hrana.Batch,
  open: Hrana.BatchCond,
  statements: readonly SqlStatement[],
  name: string,
): () => Promise<SqlResult[] | undefined> {
  const { BatchCond } = hrana;
  const ignore = () => undefined;
  const savepoint = batch.step().condition(open);
  savepoint.run(`SAVEPOINT ${name}`).catch(ignore);
  let last = savepoint;
  const results = statements.map((statement) => {
    const step = batch.step().condition(BatchCond.and(batch, [BatchCond.ok(last), open]));
    last = step;
    const result = step.query(stmt(hrana, statement));
    result.catch(ignore);
    return result;
  });
  const allRan = BatchCond.ok(last);
  batch
    .step()
    .condition(BatchCond.and(batch, [allRan, open]))
    .run(`RELEASE ${name}`)
    .catch(ignore);
  const undo = batch.step().condition(BatchCond.and(batch, [BatchCond.ok(savepoint), BatchCond.not(allRan), open]));
  undo.run(`ROLLBACK TO ${name}`).catch(ignore);
  batch.step().condition(BatchCond.ok(undo)).run(`RELEASE ${name}`).catch(ignore);
  return async () => {
    const out: SqlResult[] = [];
    // The first statement that failed says why; one that did not run follows a failure.
    for (const result of results) {
      const rows = await result;
      if (rows === undefined) return undefined;
      out.push(toResult(rows));
    }
    return out;
  };
}

function stmt(hrana: typeof Hrana, statement: SqlStatement): Hrana.Stmt {
  const built = new hrana.Stmt(statement.sql);
  if (statement.args) built.bindIndexes([...statement.args]);
  return built;
}

/**
 * Why the pipeline's transaction did not commit (nothing of it was applied), or null when it did.
 * A busy BEGIN or COMMIT stays itself, to be retried as any busy statement is; anything else is
 * `PipelineNotApplied`, which may be sent again.
 */
export async function whyNotCommitted(began: Promise<unknown>, committed: Promise<unknown>): Promise<Error | null> {
  const failed = (step: string, error: unknown) =>
    isBusyError(error) ? error : new PipelineNotApplied(`${step} failed`, error);
  try {
    await began;
  } catch (error) {
    return failed("BEGIN", error);
  }
  try {
    if ((await committed) === undefined) return new PipelineNotApplied("an error rolled the transaction back");
  } catch (error) {
    return failed("COMMIT", error);
  }
  return null;
}

/** Nothing of this job was applied (never sent, or its transaction did not commit): safe to send again. */
export class PipelineNotApplied extends Error {
  readonly code = "PIPELINE_NOT_APPLIED";
  constructor(why: string, cause?: unknown) {
    super(`The database applied nothing of this statement: ${why}.`, { cause });
    this.name = "PipelineNotApplied";
  }
}

/** The server speaks Hrana 2 only: a batch cannot say "while the transaction is open", so nothing was sent. */
export class PipelineUnsupported extends Error {
  constructor() {
    super("The database server speaks Hrana 2 only; statements go one request each.");
    this.name = "PipelineUnsupported";
  }
}

export function sizeOf(statements: readonly SqlStatement[]): number {
  let bytes = 0;
  for (const statement of statements) {
    bytes += statement.sql.length;
    for (const value of statement.args ?? [])
      bytes += value instanceof Uint8Array ? value.byteLength : typeof value === "string" ? value.length : 8;
  }
  return bytes;
}

function toResult(result: Hrana.RowsResult): SqlResult {
  return serverResult(result.columnNames, result.rows, result.affectedRowCount);
}
