import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Sql } from "../db/sql.ts";

/**
 * The HMAC keys for credit codes, download links and idempotency digests. Whatever is made now is
 * keyed with `current`; what was made before a rotation is still accepted under a `previous` key
 * until staff retire them, so rotating never silently voids paid-for codes or e-mailed links.
 */
export interface SecretRing {
  current: string;
  /** Newest first; never contains `current`. */
  previous: string[];
}

/** The keys verification tries, current first. */
export function ringKeys(ring: SecretRing): string[] {
  return [ring.current, ...ring.previous];
}

/** What the environment says (api/config.ts); it wins over the database for `current`. */
export interface ConfiguredSecrets {
  serverSecret: string | undefined;
  serverSecretPrevious: readonly string[];
}

const CURRENT = "server_secret";
const PREVIOUS = "server_secret_previous";
const PreviousSchema = z.array(z.string().min(1));

/** A new secret: 32 random bytes, base64url (43 characters, above SERVER_SECRET's minimum). */
export const newServerSecret = (): string => randomBytes(32).toString("base64url");

interface StoredSecrets {
  current: string | null;
  previous: string[];
  /** The stored text as read, so a rotation can tell whether someone changed it meanwhile. */
  previousText: string | null;
}

async function readStoredSecrets(client: Sql): Promise<StoredSecrets> {
  const result = await client.execute({
    sql: "SELECT key, value FROM settings WHERE key IN (?, ?)",
    args: [CURRENT, PREVIOUS],
  });
  const value = (key: string) => {
    const found = result.rows.find((row) => row.key === key)?.value;
    return typeof found === "string" ? found : null;
  };
  const previousText = value(PREVIOUS);
  return { current: value(CURRENT), previous: previousText === null ? [] : parsePrevious(previousText), previousText };
}

function parsePrevious(text: string): string[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = PreviousSchema.safeParse(json);
  if (!parsed.success) throw new Error(`settings.${PREVIOUS} is not a JSON array of secrets; fix or delete that row`);
  return parsed.data;
}

/**
 * The ring for this process, read once at start (so every instance must restart after a
 * rotation). Without `SERVER_SECRET`, `current` is generated on first start and kept in the
 * database: `INSERT OR IGNORE` then read makes every instance agree on the first one written.
 * `previous` is the environment's list then the database's, without repeats or `current`. A
 * generated secret that `SERVER_SECRET` now overrides joins `previous` too: moving from the
 * generated secret to one from a secret store is a rotation, and the generated one is never shown.
 */
export async function loadSecretRing(client: Sql, configured: ConfiguredSecrets): Promise<SecretRing> {
  if (!configured.serverSecret) {
    await client.execute({
      sql: "INSERT OR IGNORE INTO settings (key, value, updated_at) VALUES (?, ?, ?)",
      args: [CURRENT, newServerSecret(), new Date().toISOString()],
    });
  }
  const stored = await readStoredSecrets(client);
  const current = configured.serverSecret ?? stored.current;
  if (!current) throw new Error("The server secret could not be stored");
  const overridden = configured.serverSecret && stored.current ? [stored.current] : [];
  const previous = [...new Set([...configured.serverSecretPrevious, ...overridden, ...stored.previous])].filter(
    (key) => key !== current,
  );
  return { current, previous };
}

export type Rotation = { rotated: true; previousKept: number } | { rotated: false };

/**
 * Stores a new current secret and moves the old one to the front of the previous list, in one
 * batch. It applies only if neither row changed since they were read, so two rotations at once
 * cannot lose a key: the loser changes nothing and says so.
 */
export async function rotateStoredSecret(client: Sql, at: string): Promise<Rotation> {
  const stored = await readStoredSecrets(client);
  const previous =
    stored.current === null
      ? stored.previous
      : [stored.current, ...stored.previous.filter((key) => key !== stored.current)];
  const [swapped] = await client.batch(
    [
      {
        sql: `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
              ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
              WHERE settings.value IS ? AND (SELECT value FROM settings WHERE key = ?) IS ?`,
        args: [CURRENT, newServerSecret(), at, stored.current, PREVIOUS, stored.previousText],
      },
      {
        // Only if the first statement changed the row; a WHERE is also what lets SQLite parse ON CONFLICT after a SELECT.
        sql: `INSERT INTO settings (key, value, updated_at) SELECT ?, ?, ? WHERE changes() = 1
              ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
        args: [PREVIOUS, JSON.stringify(previous), at],
      },
    ],
    "write",
  );
  return swapped?.rowsAffected === 1 ? { rotated: true, previousKept: previous.length } : { rotated: false };
}

/** Drops the database's previous keys (not SERVER_SECRET_PREVIOUS); answers how many there were. */
export async function retireStoredPreviousSecrets(client: Sql): Promise<number> {
  const result = await client.execute({ sql: "DELETE FROM settings WHERE key = ? RETURNING value", args: [PREVIOUS] });
  const text = result.rows[0]?.value;
  return typeof text === "string" ? parsePrevious(text).length : 0;
}
