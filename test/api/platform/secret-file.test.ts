import { readFileSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { creditCodeHashes, deriveCreditCode, normaliseCreditCode } from "../../../api/checks/credit-codes.ts";
import { paymentCodeId } from "../../../api/checks/fulfilment.ts";
import { creditCodeHash } from "../../../api/checks/sql/credits.ts";
import { FileSql } from "../../../api/db/file-sql.ts";
import { migrate } from "../../../api/db/migrate.ts";
import { secretFileFor } from "../../../api/platform/secret-file.ts";
import { loadSecretRing } from "../../../api/platform/secret-ring.ts";
import { signDownloadToken, verifyDownloadToken } from "../../../api/store/download-links.ts";
import { backupCommand } from "../../../scripts/admin/backup.ts";
import { everyStoredValue, useSecretBed } from "../../helpers/secret-bed.ts";

const SECRET_A = "env-secret-a-0123456789abcdefghijklmnop";
const SECRET_X = "env-secret-x-0123456789abcdefghijklmnop";

const bed = useSecretBed();

describe("the generated server secret", () => {
  it("is kept in a 0600 file beside the database, so neither the database nor an `admin backup` copy can forge a download link or a credit code", async () => {
    const app = await bed.instance();
    const { secrets } = app.t.services;
    const issued = await bed.issue(app);
    const paymentId = await bed.payForPack(app, "pack@example.com");
    const entitlementId = issued.link.split("/").pop()?.split(".")[1] ?? "";
    const packCodeHash = await creditCodeHash(app.t.services.database.client, paymentCodeId(paymentId));
    const forgedCodeWorks = (key: string) => {
      const checked = normaliseCreditCode(deriveCreditCode(key, paymentId));
      return checked.ok && creditCodeHashes(secrets, checked.normalised).includes(packCodeHash ?? "");
    };
    const later = new Date(Date.now() + 86_400_000);
    const forgedLinkWorks = (key: string) =>
      verifyDownloadToken(secrets, signDownloadToken(key, entitlementId, later), new Date()).ok;
    // With the secret itself both forgeries work, and the server takes the link: the test can tell.
    expect(forgedCodeWorks(secrets.current)).toBe(true);
    expect(forgedLinkWorks(secrets.current)).toBe(true);
    const forged = `/api/v1/downloads/${signDownloadToken(secrets.current, entitlementId, later)}`;
    expect((await app.t.send("GET", forged)).status).toBe(200);
    await app.close();

    const backup = join(dirname(bed.databaseFile), "copy.db");
    const backedUp = await bed.admin(backupCommand, {}, backup);
    expect(backedUp.code).toBe(0);
    expect(backedUp.stdout).toContain(`The copy holds no server secret: back up ${secretFileFor(bed.databaseFile)}`);
    for (const file of [bed.databaseFile, backup]) {
      const texts = await everyStoredValue(file);
      expect(texts.length, file).toBeGreaterThan(50);
      expect(
        texts.filter((text) => text.includes(secrets.current)),
        file,
      ).toEqual([]);
      expect(texts.filter(forgedCodeWorks), file).toEqual([]);
      expect(texts.filter(forgedLinkWorks), file).toEqual([]);
    }
    const secretFile = secretFileFor(bed.databaseFile);
    expect(JSON.parse(readFileSync(secretFile, "utf8"))).toEqual({ current: secrets.current, previous: [] });
    expect(statSync(secretFile).mode & 0o777).toBe(0o600);
  });

  it("moves a secret an older version kept in the database into the file, and what it signed keeps working", async () => {
    const before = await bed.instance();
    const secret = before.t.services.secrets.current;
    const old = await bed.issue(before);
    await before.close();
    // The database as a version before the secret file left it: the ring in settings, in plain text.
    rmSync(secretFileFor(bed.databaseFile));
    const legacy = new FileSql(bed.databaseFile, 5_000);
    await legacy.execute({
      sql: "INSERT INTO settings (key, value, updated_at) VALUES ('server_secret', ?, ?), ('server_secret_previous', ?, ?)",
      args: [secret, new Date().toISOString(), JSON.stringify([SECRET_X]), new Date().toISOString()],
    });
    legacy.close();

    const after = await bed.instance();
    expect(after.t.services.secrets).toEqual({ current: secret, previous: [SECRET_X] });
    await bed.expectWorking(after, old);
    await after.close();
    expect((await everyStoredValue(bed.databaseFile)).filter((text) => text.includes(secret))).toEqual([]);
    expect(JSON.parse(readFileSync(secretFileFor(bed.databaseFile), "utf8"))).toEqual({
      current: secret,
      previous: [SECRET_X],
    });
    expect(statSync(secretFileFor(bed.databaseFile)).mode & 0o777).toBe(0o600);
  });

  it("is never generated for a remote database: SERVER_SECRET is required there, and a stored one stays a previous key", async () => {
    // A database without a file path is what a remote (libsql://) one looks like to the ring.
    const client = new FileSql(bed.databaseFile, 5_000);
    try {
      await migrate(client);
      await expect(
        loadSecretRing({ client, path: undefined }, { serverSecret: undefined, serverSecretPrevious: [] }),
      ).rejects.toThrow("SERVER_SECRET: must be set with a remote database");
      await client.execute({
        sql: "INSERT INTO settings (key, value, updated_at) VALUES ('server_secret', ?, ?)",
        args: [SECRET_X, new Date().toISOString()],
      });
      const warnings: string[] = [];
      const ring = await loadSecretRing(
        { client, path: undefined },
        { serverSecret: SECRET_A, serverSecretPrevious: [] },
        (message) => warnings.push(message),
      );
      expect(ring).toEqual({ current: SECRET_A, previous: [SECRET_X] });
      expect(warnings).toEqual([expect.stringContaining("npm run admin -- secret retire-previous")]);
    } finally {
      client.close();
    }
  });
});
