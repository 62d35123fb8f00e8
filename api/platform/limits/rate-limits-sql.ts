import type { Sql } from "../../db/sql.ts";

/**
 * Counts one request in a fixed window shared by every instance: one atomic upsert (the statement
 * rate-limiter-flexible's SQLite store uses), returning the count and when the window ends.
 */
export async function consumeInDatabase(
  client: Sql,
  key: string,
  windowMs: number,
  now: number,
): Promise<{ count: number; windowEndsAt: number }> {
  const result = await client.execute({
    sql: `INSERT INTO rate_limit_counters (key, count, window_ends_at) VALUES (?, 1, ?)
          ON CONFLICT (key) DO UPDATE SET
            count = CASE WHEN window_ends_at > ? THEN count + 1 ELSE 1 END,
            window_ends_at = CASE WHEN window_ends_at > ? THEN window_ends_at ELSE excluded.window_ends_at END
          RETURNING count, window_ends_at`,
    args: [key, now + windowMs, now, now],
  });
  const row = result.rows[0];
  return { count: Number(row?.count ?? 1), windowEndsAt: Number(row?.window_ends_at ?? now + windowMs) };
}

export async function purgeExpiredCounters(client: Sql, now: number): Promise<void> {
  await client.execute({ sql: "DELETE FROM rate_limit_counters WHERE window_ends_at <= ?", args: [now] });
}

/** One count back, only while its window lasts (a new window already starts from nothing). */
export async function refundInDatabase(client: Sql, key: string, now: number): Promise<void> {
  await client.execute({
    sql: "UPDATE rate_limit_counters SET count = count - 1 WHERE key = ? AND window_ends_at > ? AND count > 0",
    args: [key, now],
  });
}
