import { randomBytes } from "node:crypto";
import {
  chmodSync,
  closeSync,
  fsyncSync,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { join, parse } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";

/**
 * The server secret's file beside an embedded database: `data/service.db` keeps it in
 * `data/service.secret.json` (and the crawler's signing keys, `kind` "signing-keys", in
 * `data/service.signing-keys.json`). Beside, not inside: a copy of the database (a backup, a support
 * bundle) then cannot sign download links, credit codes or requests. A different name from the
 * database's, so a `service.db*` copy does not take it along.
 */
export function secretFileFor(databasePath: string, kind = "secret"): string {
  const { dir, name } = parse(databasePath);
  return join(dir, `${name}.${kind}.json`);
}

const StoredRingSchema = z.strictObject({
  current: z.string().min(32),
  /** Newest first. */
  previous: z.array(z.string().min(32)),
});
export type StoredRing = z.infer<typeof StoredRingSchema>;

const OWNER_ONLY = 0o600;

/** The ring in `file`; `null` when there is none. Loosened permissions are tightened back to 0600. */
export function readSecretFile(file: string): StoredRing | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "ENOENT") return null;
    throw error;
  }
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, OWNER_ONLY);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = StoredRingSchema.safeParse(json);
  if (!parsed.success)
    throw new Error(`${file} is not a key file ({"current": …, "previous": […]}); restore it from your backup`);
  return parsed.data;
}

/** Writes `ring` to a new file readable by its owner only, flushed to disk; returns its name. */
function writeTemporary(file: string, ring: StoredRing): string {
  const temporary = `${file}.${randomBytes(6).toString("hex")}.tmp`;
  const fd = openSync(temporary, "wx", OWNER_ONLY);
  try {
    writeSync(fd, `${JSON.stringify(ring, null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return temporary;
}

/**
 * Creates `file` holding `ring` unless it exists, atomically (a hard link never replaces a file):
 * instances starting at once all end up with the one ring written first, never half a file.
 */
export function createSecretFile(file: string, ring: StoredRing): StoredRing {
  const temporary = writeTemporary(file, ring);
  try {
    linkSync(temporary, file);
    return ring;
  } catch (error) {
    if (!(error instanceof Error && "code" in error && error.code === "EEXIST")) throw error;
    const existing = readSecretFile(file);
    if (!existing) throw error;
    return existing;
  } finally {
    unlinkSync(temporary);
  }
}

/** Replaces the ring in `file` at once (rename): a reader sees the old ring or the new one. */
export function replaceSecretFile(file: string, ring: StoredRing): void {
  renameSync(writeTemporary(file, ring), file);
}

/**
 * Runs `task` while holding `<file>.lock`, so two rotations (or two instances migrating an old
 * database) cannot lose a key by writing over each other. Waits up to `waitMs` for another holder.
 */
export async function withSecretFileLock<T>(file: string, task: () => T | Promise<T>, waitMs = 5_000): Promise<T> {
  const lock = `${file}.lock`;
  const deadline = Date.now() + waitMs;
  let fd: number | undefined;
  while (fd === undefined) {
    try {
      fd = openSync(lock, "wx", OWNER_ONLY);
    } catch (error) {
      if (!(error instanceof Error && "code" in error && error.code === "EEXIST")) throw error;
      if (Date.now() > deadline)
        throw new Error(`${lock} has been held for ${waitMs / 1000} s; if no rotation is running, delete it`);
      await sleep(50);
    }
  }
  try {
    return await task();
  } finally {
    closeSync(fd);
    unlinkSync(lock);
  }
}

/** Keys without repeats, `except` (the current key) and empty places. */
export const distinctKeys = (keys: readonly (string | null | undefined)[], except?: string): string[] => [
  ...new Set(keys.filter((key): key is string => typeof key === "string" && key !== "" && key !== except)),
];

/**
 * Stores `fresh` as the current key of the ring in `file` and moves the old current key to the front of the
 * previous ones, under the file's lock (two rotations at once cannot lose a key). Answers how many previous keys
 * the file now keeps.
 */
export function rotateKeyFile(file: string, fresh: string): Promise<number> {
  return withSecretFileLock(file, () => {
    const stored = readSecretFile(file);
    const previous = stored ? distinctKeys([stored.current, ...stored.previous], fresh) : [];
    replaceSecretFile(file, { current: fresh, previous });
    return previous.length;
  });
}

/** Drops the previous keys of the ring in `file`, under its lock; answers how many were dropped. */
export function retirePreviousKeys(file: string): Promise<number> {
  return withSecretFileLock(file, () => {
    const stored = readSecretFile(file);
    if (!stored || stored.previous.length === 0) return 0;
    replaceSecretFile(file, { ...stored, previous: [] });
    return stored.previous.length;
  });
}
