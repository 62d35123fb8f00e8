import { readdirSync, readFileSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ed25519KeyFromSeed } from "../../../../api/platform/signing/jwk.ts";
import {
  loadSigningKeys,
  SigningKeySetupError,
  signingKeysFileFor,
} from "../../../../api/platform/signing/signing-keys.ts";
import { signingKeyCommand } from "../../../../scripts/admin/signing-key.ts";
import { runAdminCommand } from "../../../helpers/admin-cli.ts";
import { createTestApp, type TestApp } from "../../../helpers/app.ts";

const SEED_A = "tdP6K3nscsDfxe2P1m1EzfeqOvFm1jPomKIOlXtMaPA";
const SEED_B = "Qv0B3yq4Zl3t8Fv1ORlHxgkOzH0ipoKk1CmQ2xdR7lE";
const none = { botSigningKey: undefined, botSigningKeyPrevious: [] };

let dir = "";
let database = "";
const apps: TestApp[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "signing-"));
  database = join(dir, "service.db");
});
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
  await rm(dir, { recursive: true, force: true });
});

/** One instance of the service over this test's database (a restart: open another). */
async function instance(env: Record<string, string> = {}): Promise<TestApp> {
  const app = await createTestApp({ env: { DATABASE_URL: `file:${database}`, ...env } });
  apps.push(app);
  return app;
}

async function publishedIds(app: TestApp): Promise<string[]> {
  const response = await app.send("GET", "/.well-known/http-message-signatures-directory");
  return ((await response.json()) as { keys: Array<{ kid: string }> }).keys.map((key) => key.kid);
}

function admin(env: Record<string, string>, ...args: string[]) {
  Object.assign(process.env, {
    NODE_ENV: "test",
    DATABASE_URL: `file:${database}`,
    BOT_SIGNING_KEY: "",
    BOT_SIGNING_KEY_PREVIOUS: "",
    ...env,
  });
  return runAdminCommand(signingKeyCommand, ...args);
}

describe("the crawler's signing key", () => {
  it("is generated on first start into a 0600 file beside the database, never into the database, and shared by every later start", async () => {
    const first = await instance();
    const file = signingKeysFileFor(database);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(file, "utf8")) as { current: string; previous: string[] };
    expect(ed25519KeyFromSeed(stored.current).keyid).toBe(first.services.signingKeys.current.keyid);
    for (const name of readdirSync(dir).filter((entry) => entry.startsWith("service.db")))
      expect(readFileSync(join(dir, name)).includes(stored.current)).toBe(false);
    const second = await instance();
    expect(second.services.signingKeys.current.keyid).toBe(first.services.signingKeys.current.keyid);
  });

  it("comes from BOT_SIGNING_KEY when set; the stored key it overrides stays published as a previous key", async () => {
    const generated = (await instance()).services.signingKeys.current.keyid;
    const fromEnv = await instance({ BOT_SIGNING_KEY: SEED_A, BOT_SIGNING_KEY_PREVIOUS: SEED_B });
    expect(await publishedIds(fromEnv)).toEqual([
      ed25519KeyFromSeed(SEED_A).keyid,
      ed25519KeyFromSeed(SEED_B).keyid,
      generated,
    ]);
  });

  it("is required from the environment with a remote database, where instances share nothing but their configuration", () => {
    expect(() => loadSigningKeys(undefined, none)).toThrow(SigningKeySetupError);
    expect(() => loadSigningKeys(undefined, none)).toThrow(/BOT_SIGNING_KEY: must be set with a remote database/);
    expect(loadSigningKeys(undefined, { ...none, botSigningKey: SEED_A }).current.keyid).toBe(
      ed25519KeyFromSeed(SEED_A).keyid,
    );
  });

  it("rotates with the staff CLI, keeps publishing the old key until it is retired, and never prints a private key", async () => {
    const before = (await instance()).services.signingKeys.current.keyid;
    const stored = JSON.parse(readFileSync(signingKeysFileFor(database), "utf8")) as { current: string };
    const rotated = await admin({}, "rotate");
    expect(rotated.code).toBe(0);
    expect(rotated.stdout).toContain("Restart every instance");
    const after = await instance();
    const current = after.services.signingKeys.current.keyid;
    expect(current).not.toBe(before);
    expect(await publishedIds(after)).toEqual([current, before]);
    const listed = await admin({}, "list");
    expect(listed.stdout).toContain(`${before}  previous`);
    const retired = await admin({}, "retire-previous");
    expect(retired.stdout).toContain("Dropped 1 stored previous key");
    expect(await publishedIds(await instance())).toEqual([current]);
    const printed = [rotated, listed, retired].map((run) => run.stdout + run.stderr).join("\n");
    expect(printed).not.toContain(stored.current);
  });

  it("refuses to rotate a stored key that BOT_SIGNING_KEY overrides, and says how to rotate by environment", async () => {
    await instance();
    const refused = await admin({ BOT_SIGNING_KEY: SEED_A }, "rotate");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("BOT_SIGNING_KEY is set in the environment");
  });
});
