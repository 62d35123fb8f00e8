import type { Sql, SqlStatement } from "../db/sql.ts";

export async function hasPaymentEvent(sql: Sql, id: string): Promise<boolean> {
  return (await sql.queryOne({ sql: "SELECT 1 AS seen FROM payment_events WHERE id = ?", args: [id] })) !== undefined;
}

/** Records an event in the batch that applies it; a second delivery of the same id changes nothing. */
export function recordPaymentEventStatement(
  event: { id: string; type: string; created: number },
  at: string,
): SqlStatement {
  return {
    sql: "INSERT INTO payment_events (id, type, created, received_at) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
    args: [event.id, event.type, event.created, at],
  };
}
