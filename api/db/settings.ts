import { randomBytes } from "node:crypto";
import type { Sql } from "./sql.ts";

/**
 * The HMAC key for download links and credit codes: `SERVER_SECRET` when given, otherwise one
 * generated on first start and kept in the database. `INSERT OR IGNORE` then read makes every
 * instance agree on the first one written.
 */
export async function ensureServerSecret(client: Sql, configured: string | undefined): Promise<string> {
  if (configured) return configured;
  await client.execute({
    sql: "INSERT OR IGNORE INTO settings (key, value, updated_at) VALUES ('server_secret', ?, ?)",
    args: [randomBytes(32).toString("base64url"), new Date().toISOString()],
  });
  const result = await client.execute("SELECT value FROM settings WHERE key = 'server_secret'");
  const value = result.rows[0]?.value;
  if (typeof value !== "string") throw new Error("The server secret could not be stored");
  return value;
}
