import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import type { SqlStatement } from "../../db/sql.ts";
import { ringKeys, type SecretRing, SecretSetupError } from "../secret-ring.ts";

/** What the key needs of a database connection or transaction. */
interface Executor {
  execute(statement: SqlStatement | string): Promise<{ rows: Record<string, unknown>[] }>;
}

/** The values that work as credentials in a URL and are looked up by a keyed hash of themselves. */
export type CredentialKind = "checkout-session" | "report";

/**
 * Keyed hashes and sealed values under the service's lookup key, so that the database holds
 * nothing that works as a credential (a copy of it, a backup, a support bundle grants nothing):
 *
 * - `hash`: what a table stores in place of a credential it must find rows by (a purchase's checkout
 *   session id, a report's id): HMAC-SHA256, one-way, and keyed, so a copy cannot even confirm a
 *   guessed id.
 * - `seal`/`open`: a credential a queued e-mail must show when it is sent (the purchase page's
 *   session id, the report's id), encrypted (AES-256-GCM) until then.
 *
 * The lookup key is one random key for the life of the database. It is not the server secret,
 * because rows keyed under a secret could not be found once that secret were retired, and the ids
 * they stand for are never known again; the key is kept in `settings`, sealed under each key of
 * the secret ring (see `loadLookupKeys`), so rotating the secret re-seals it and never re-keys a row.
 */
export class LookupKeys {
  readonly #hashKey: Buffer;
  readonly #sealKey: Buffer;
  /** One key's fingerprint, to tell whether two databases share it (never the key itself). */
  readonly id: string;

  readonly lookupKey: Buffer;

  constructor(lookupKey: Buffer) {
    this.lookupKey = lookupKey;
    this.#hashKey = derive(lookupKey, "agentready/lookup/hash");
    this.#sealKey = derive(lookupKey, "agentready/lookup/seal");
    this.id = derive(lookupKey, "agentready/lookup/id").toString("hex").slice(0, 16);
  }

  hash(kind: CredentialKind, value: string): string {
    return createHmac("sha256", this.#hashKey).update(`${kind}\0${value}`).digest("hex");
  }

  seal(text: string): string {
    return seal(this.#sealKey, Buffer.from(text, "utf8")).toString("base64url");
  }

  /** The sealed text, or `null` when it is not one this key sealed (altered, or another database's). */
  open(sealed: string): string | null {
    const opened = open(this.#sealKey, Buffer.from(sealed, "base64url"));
    return opened ? opened.toString("utf8") : null;
  }
}

const derive = (key: Buffer, purpose: string): Buffer => createHmac("sha256", key).update(purpose).digest();

function seal(key: Buffer, plain: Buffer): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]);
}

function open(key: Buffer, sealed: Buffer): Buffer | null {
  if (sealed.length < 12 + 16) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, sealed.subarray(0, 12));
    decipher.setAuthTag(sealed.subarray(sealed.length - 16));
    return Buffer.concat([decipher.update(sealed.subarray(12, sealed.length - 16)), decipher.final()]);
  } catch {
    return null;
  }
}

/** A ring key's name in `settings` (a one-way fingerprint: it tells keys apart, and nothing else). */
const fingerprint = (secret: string) =>
  derive(Buffer.from(secret), "agentready/lookup-key/fingerprint").toString("hex");
const SEAL_PREFIX = "lookup_key:";
const wrapKey = (secret: string) => derive(Buffer.from(secret), "agentready/lookup-key/wrap");

/**
 * The database's lookup key, opened with whichever key of the ring it is sealed under; made on first
 * use (the `proposed` one when given: a running server keeps its key for a database file put back). It is then sealed under every key of the ring that lacks a copy, so after a rotation (current
 * new, previous old) the next start adds the new key's copy, and retiring the old key later loses
 * nothing. Instances starting at once on a new database agree on one key: each proposes its own
 * under the current secret's name, one insert wins, and all read the winner's.
 */
export async function loadLookupKeys(sql: Executor, ring: SecretRing, proposed?: LookupKeys): Promise<LookupKeys> {
  const secrets = ringKeys(ring);
  const sealedUnder = async () =>
    new Map(
      (await sql.execute(`SELECT key, value FROM settings WHERE key LIKE '${SEAL_PREFIX}%'`)).rows.map((row) => [
        String(row.key).slice(SEAL_PREFIX.length),
        String(row.value),
      ]),
    );
  const openedWith = (seals: Map<string, string>): Buffer | null => {
    for (const secret of secrets) {
      const sealed = seals.get(fingerprint(secret));
      if (sealed === undefined) continue;
      const key = open(wrapKey(secret), Buffer.from(sealed, "base64url"));
      if (!key)
        throw new SecretSetupError(
          `settings.${SEAL_PREFIX}${fingerprint(secret)} does not open; restore it from a backup`,
        );
      return key;
    }
    return null;
  };
  let seals = await sealedUnder();
  let key = openedWith(seals);
  if (!key) {
    if (seals.size > 0)
      throw new SecretSetupError(
        "The database's lookup key is sealed only under server secrets this configuration does not hold. Add the secret the database was last served with to SERVER_SECRET_PREVIOUS (or restore its secret file), start once, then retire it.",
      );
    await addSeal(sql, secrets[0] ?? ring.current, proposed?.lookupKey ?? randomBytes(32));
    seals = await sealedUnder();
    key = openedWith(seals);
    if (!key) throw new SecretSetupError("The lookup key could not be stored in settings");
  }
  for (const secret of secrets) if (!seals.has(fingerprint(secret))) await addSeal(sql, secret, key);
  return new LookupKeys(key);
}

async function addSeal(sql: Executor, secret: string, key: Buffer): Promise<void> {
  await sql.execute({
    sql: "INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING",
    args: [
      `${SEAL_PREFIX}${fingerprint(secret)}`,
      seal(wrapKey(secret), key).toString("base64url"),
      new Date().toISOString(),
    ],
  });
}

/**
 * Removes the lookup key's copies sealed under secrets the ring no longer holds (after `admin secret
 * retire-previous`): a retired secret, often retired because it leaked, must not open the key of
 * later copies of the database. Answers how many were removed.
 */
export async function dropSealsOutside(sql: Executor, ring: SecretRing): Promise<number> {
  const kept = ringKeys(ring).map((secret) => `${SEAL_PREFIX}${fingerprint(secret)}`);
  const result = await sql.execute({
    sql: `DELETE FROM settings WHERE key LIKE '${SEAL_PREFIX}%' AND key NOT IN (${kept.map(() => "?").join(", ")}) RETURNING key`,
    args: kept,
  });
  return result.rows.length;
}
