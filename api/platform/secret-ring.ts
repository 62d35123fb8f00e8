import { randomBytes } from "node:crypto";
import { z } from "zod";
import { ConfigError } from "../config.ts";
import type { Sql } from "../db/sql.ts";
import {
  createSecretFile,
  distinctKeys as distinct,
  readSecretFile,
  replaceSecretFile,
  retirePreviousKeys,
  rotateKeyFile,
  type StoredRing,
  secretFileFor,
  withSecretFileLock,
} from "./secret-file.ts";

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

/** What the environment says (api/config.ts); it wins over the stored ring for `current`. */
export interface ConfiguredSecrets {
  serverSecret: string | undefined;
  serverSecretPrevious: readonly string[];
}

/** The database the ring belongs to: its file's path when it is embedded (`Database` is one). */
export interface SecretHome {
  client: Sql;
  path: string | undefined;
}

/** The configuration cannot give this process a server secret; the message says what to set. */
export class SecretSetupError extends ConfigError {}

/** A new secret: 32 random bytes, base64url (43 characters, above SERVER_SECRET's minimum). */
export const newServerSecret = (): string => randomBytes(32).toString("base64url");

// Where versions before the secret file kept the generated ring, in plain text.
const LEGACY_CURRENT = "server_secret";
const LEGACY_PREVIOUS = "server_secret_previous";
const LegacyPreviousSchema = z.array(z.string().min(1));

interface LegacySecrets {
  current: string | null;
  previous: string[];
}

/** The ring a database from before the secret file still holds in its `settings`, or `null`. */
async function readLegacySecrets(client: Sql): Promise<LegacySecrets | null> {
  const result = await client.execute({
    sql: "SELECT key, value FROM settings WHERE key IN (?, ?)",
    args: [LEGACY_CURRENT, LEGACY_PREVIOUS],
  });
  const value = (key: string) => {
    const found = result.rows.find((row) => row.key === key)?.value;
    return typeof found === "string" ? found : null;
  };
  const current = value(LEGACY_CURRENT);
  const previousText = value(LEGACY_PREVIOUS);
  if (current === null && previousText === null) return null;
  let previous: string[] = [];
  if (previousText !== null) {
    const parsed = LegacyPreviousSchema.safeParse(parseOrUndefined(previousText));
    if (!parsed.success)
      throw new Error(`settings.${LEGACY_PREVIOUS} is not a JSON array of secrets; fix or delete that row`);
    previous = parsed.data;
  }
  return { current, previous };
}

/** JSON text as a value, or undefined when it does not parse (the schema then says what is wrong). */
function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const forgetLegacySecrets = (client: Sql) =>
  client.execute({ sql: "DELETE FROM settings WHERE key IN (?, ?)", args: [LEGACY_CURRENT, LEGACY_PREVIOUS] });

/**
 * Moves a ring kept in the database into the file, keeping every key (what it signed still
 * verifies), then deletes it from the database. The file is written first: a crash in between
 * leaves both, and the next start merges again to the same ring.
 */
async function migrateLegacySecrets(home: SecretHome, file: string, legacy: LegacySecrets): Promise<void> {
  await withSecretFileLock(file, () => {
    const stored = readSecretFile(file);
    if (stored === null) {
      const current = legacy.current ?? newServerSecret();
      createSecretFile(file, { current, previous: distinct(legacy.previous, current) });
    } else {
      const previous = distinct([...stored.previous, legacy.current, ...legacy.previous], stored.current);
      if (previous.length !== stored.previous.length) replaceSecretFile(file, { ...stored, previous });
    }
  });
  await forgetLegacySecrets(home.client);
}

/**
 * The ring for this process, read once at start (so every instance must restart after a
 * rotation). Without `SERVER_SECRET`, an embedded database's `current` is generated on first start
 * into a 0600 file beside the database file (never into the database: a copy of it must not be
 * able to sign links or codes); every instance on the machine reads the one written first. A
 * remote database has no "beside": `SERVER_SECRET` is required then. `previous` is the
 * environment's list, then the stored one, without repeats or `current`. A stored secret that
 * `SERVER_SECRET` now overrides joins `previous` too: moving to a secret from a secret store is a
 * rotation, and the old one is never shown. A database from before the file is migrated into it.
 */
export async function loadSecretRing(
  home: SecretHome,
  configured: ConfiguredSecrets,
  warn: (message: string) => void = () => {},
): Promise<SecretRing> {
  const legacy = await readLegacySecrets(home.client);
  if (home.path === undefined) {
    if (!configured.serverSecret)
      throw new SecretSetupError(
        "Invalid configuration; fix these environment variables:\n  SERVER_SECRET: must be set with a remote database (DATABASE_URL libsql://, https:// or wss://): every instance needs the same secret, and it must not be kept in the database. Generate one of at least 32 characters (e.g. `openssl rand -base64 32`) in your secret store.",
      );
    if (legacy)
      warn(
        "The database still holds an earlier server secret in plain text; it stays accepted for the codes and links it signed. Once those no longer matter, remove it: npm run admin -- secret retire-previous",
      );
    return combine(configured, null, legacy ? [legacy.current, ...legacy.previous] : []);
  }
  const file = secretFileFor(home.path);
  if (legacy) await migrateLegacySecrets(home, file, legacy);
  let stored = readSecretFile(file);
  if (stored === null && !configured.serverSecret)
    stored = createSecretFile(file, { current: newServerSecret(), previous: [] });
  return combine(configured, stored);
}

function combine(
  configured: ConfiguredSecrets,
  stored: StoredRing | null,
  alsoPrevious: readonly (string | null)[] = [],
): SecretRing {
  const current = configured.serverSecret ?? stored?.current;
  if (!current) throw new SecretSetupError("No server secret is configured or stored");
  const overridden = configured.serverSecret && stored ? [stored.current] : [];
  const previous = distinct(
    [...configured.serverSecretPrevious, ...overridden, ...(stored?.previous ?? []), ...alsoPrevious],
    current,
  );
  return { current, previous };
}

export type Rotation = { file: string; previousKept: number };

/**
 * Stores a new current secret in the embedded database's secret file and moves the old one to
 * the front of the previous keys, under the file's lock (two rotations at once cannot lose a key).
 */
export async function rotateStoredSecret(home: SecretHome & { path: string }): Promise<Rotation> {
  const file = secretFileFor(home.path);
  const legacy = await readLegacySecrets(home.client);
  if (legacy) await migrateLegacySecrets(home, file, legacy);
  return { file, previousKept: await rotateKeyFile(file, newServerSecret()) };
}

/**
 * Drops the stored previous keys (not SERVER_SECRET_PREVIOUS): an embedded database's in its
 * secret file; a remote database's are those it still holds in plain text from before the file
 * (with SERVER_SECRET required there, every one of them is a previous key). Answers how many.
 */
export async function retireStoredPreviousSecrets(home: SecretHome): Promise<number> {
  const legacy = await readLegacySecrets(home.client);
  if (home.path === undefined) {
    if (legacy) await forgetLegacySecrets(home.client);
    return legacy ? distinct([legacy.current, ...legacy.previous]).length : 0;
  }
  const file = secretFileFor(home.path);
  if (legacy) await migrateLegacySecrets(home, file, legacy);
  return retirePreviousKeys(file);
}
