import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { ConfigError } from "../../config.ts";
import {
  createSecretFile,
  distinctKeys,
  readSecretFile,
  retirePreviousKeys,
  rotateKeyFile,
  secretFileFor,
} from "../secret-file.ts";
import { type Ed25519Key, ed25519KeyFromSeed, newEd25519Seed } from "./jwk.ts";

/**
 * The crawler's Web Bot Auth keys: every request is signed with `current`; the key directory publishes `current`
 * and every `previous` key, so a verifier that cached the directory before a rotation still finds the key of a
 * request signed just before it, until staff retire the previous keys (draft-ietf-webbotauth-httpsig-protocol-01
 * §5.5.2: publish the old and the new key together, then remove the old one).
 */
export interface SigningKeyRing {
  current: Ed25519Key;
  /** Newest first; never contains `current`. */
  previous: Ed25519Key[];
}

/** What the environment says (api/config.ts); it wins over the stored ring for `current`. */
export interface ConfiguredSigningKeys {
  botSigningKey: string | undefined;
  botSigningKeyPrevious: readonly string[];
}

/** The configuration cannot give this process a signing key; the message says what to set. */
export class SigningKeySetupError extends ConfigError {}

/** `data/service.db` keeps its signing keys in `data/service.signing-keys.json`, beside the server secret. */
export const signingKeysFileFor = (databasePath: string): string => secretFileFor(databasePath, "signing-keys");

/** Every key the directory publishes, current first. */
export const publishedKeys = (ring: SigningKeyRing): Ed25519Key[] => [ring.current, ...ring.previous];

function keyFrom(seed: string, where: string): Ed25519Key {
  try {
    return ed25519KeyFromSeed(seed);
  } catch (error) {
    throw new SigningKeySetupError(
      `${where} is not an Ed25519 signing key: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * The ring for this process, read once at start (every instance restarts after a rotation, as for the server
 * secret). Without `BOT_SIGNING_KEY`, an embedded database's current key is generated on first start into a 0600
 * file beside the database file (never into the database: a copy of it must not be able to sign as the crawler),
 * and every instance on the machine reads the one written first. A remote database has no "beside": every
 * instance must sign with the key the directory they all serve publishes, so `BOT_SIGNING_KEY` is required then.
 * A stored key that `BOT_SIGNING_KEY` now overrides stays published as a previous key.
 */
export function loadSigningKeys(databasePath: string | undefined, configured: ConfiguredSigningKeys): SigningKeyRing {
  if (databasePath === undefined && !configured.botSigningKey)
    throw new SigningKeySetupError(
      "Invalid configuration; fix these environment variables:\n  BOT_SIGNING_KEY: must be set with a remote database (DATABASE_URL libsql://, https:// or wss://): every instance must sign the checker's requests with the key they all publish. Generate one (32 random bytes, base64url: `node -e \"console.log(require('crypto').randomBytes(32).toString('base64url'))\"`) in your secret store.",
    );
  const file = databasePath === undefined ? null : signingKeysFileFor(databasePath);
  let stored = file === null ? null : readSecretFile(file);
  if (file !== null && stored === null && !configured.botSigningKey) {
    // The command-line checker may run before the server ever created the database's folder.
    mkdirSync(dirname(file), { recursive: true });
    stored = createSecretFile(file, { current: newEd25519Seed(), previous: [] });
  }
  const currentSeed = configured.botSigningKey ?? stored?.current ?? "";
  const overridden = configured.botSigningKey && stored ? [stored.current] : [];
  const previousSeeds = distinctKeys(
    [...configured.botSigningKeyPrevious, ...overridden, ...(stored?.previous ?? [])],
    currentSeed,
  );
  const source = configured.botSigningKey ? "BOT_SIGNING_KEY" : `the current key in ${file}`;
  return {
    current: keyFrom(currentSeed, source),
    previous: previousSeeds.map((seed, index) => keyFrom(seed, `previous signing key ${index + 1}`)),
  };
}

/** A new current key in the file beside an embedded database; the old one stays published. Answers how many previous keys the file keeps. */
export async function rotateStoredSigningKey(databasePath: string): Promise<{ file: string; previousKept: number }> {
  const file = signingKeysFileFor(databasePath);
  return { file, previousKept: await rotateKeyFile(file, newEd25519Seed()) };
}

/** Stops publishing the stored previous keys (not BOT_SIGNING_KEY_PREVIOUS); answers how many. */
export function retireStoredPreviousSigningKeys(databasePath: string): Promise<number> {
  return retirePreviousKeys(signingKeysFileFor(databasePath));
}
