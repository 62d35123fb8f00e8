import { describe, expect, it } from "vitest";
import { deriveCreditCode } from "../../../api/checks/credit-codes.ts";
import { paymentCodeId } from "../../../api/checks/fulfilment.ts";
import { creditCodeHash } from "../../../api/checks/sql/credits.ts";
import { secretCommand } from "../../../scripts/admin/secret.ts";
import { type AdminRun, runAdmin } from "../../helpers/admin-cli.ts";
import { CREDIT_CODE_IN_TEXT, creditCodeIn } from "../../helpers/credit-code.ts";
import { useSecretBed } from "../../helpers/secret-bed.ts";

const SECRET_A = "env-secret-a-0123456789abcdefghijklmnop";
const SECRET_B = "env-secret-b-0123456789abcdefghijklmnop";
const SECRET_X = "env-secret-x-0123456789abcdefghijklmnop";
// A fresh Node process takes seconds on a busy machine.
const SLOW = 60_000;

const bed = useSecretBed();

/** `npm run admin -- secret …` against this test's database, configured from the environment as the CLI is. */
const secretAdmin = (env: Record<string, string>, ...args: string[]): Promise<AdminRun> =>
  bed.admin(secretCommand, env, ...args);

describe("npm run admin -- secret rotate, then retire-previous", () => {
  it("keeps codes and links made before the rotation working after a restart, keys new ones with the new secret, and refuses the old ones once retired", async () => {
    const before = await bed.instance();
    const oldSecret = before.t.services.secrets.current;
    const old = await bed.issue(before);
    await before.close();

    const rotated = await secretAdmin({}, "rotate");
    expect(rotated.code).toBe(0);
    expect(rotated.stdout).toMatch(
      /Stored a new server secret in \S+service\.secret\.json\. It now keeps 1 previous key/,
    );
    expect(rotated.stdout).toContain("Restart every instance now");

    // The environment's previous keys come first, each once, and never the current one.
    const after = await bed.instance({ SERVER_SECRET_PREVIOUS: `${SECRET_X},${oldSecret}` });
    const { secrets } = after.t.services;
    expect(secrets.current).not.toBe(oldSecret);
    expect(secrets.previous).toEqual([SECRET_X, oldSecret]);
    expect(rotated.stdout).not.toContain(oldSecret);
    expect(rotated.stdout).not.toContain(secrets.current);
    await bed.expectWorking(after, old);
    const fresh = await bed.issue(after);
    await bed.expectKeyedWith(after, fresh, secrets.current);
    await after.close();

    const retired = await secretAdmin({ SERVER_SECRET_PREVIOUS: SECRET_X }, "retire-previous");
    expect(retired.code).toBe(0);
    expect(retired.stdout).toContain("Dropped 1 stored previous key.");
    expect(retired.stdout).toContain("credit codes and download links issued before the last rotation stop working");
    expect(retired.stdout).toContain("SERVER_SECRET_PREVIOUS still holds 1 key");
    expect(retired.stdout).not.toContain(oldSecret);
    expect((await secretAdmin({}, "retire-previous")).stdout).toContain(
      "There were no stored previous keys; nothing changed.",
    );

    const later = await bed.instance();
    expect(later.t.services.secrets).toEqual({ current: secrets.current, previous: [] });
    await bed.expectRefused(later, old);
    await bed.expectWorking(later, fresh);
    await later.close();
  });

  it("rotates by environment the same way, and refuses `secret rotate` while SERVER_SECRET is set", async () => {
    const before = await bed.instance({ SERVER_SECRET: SECRET_A });
    const old = await bed.issue(before);
    await before.close();

    const refused = await secretAdmin({ SERVER_SECRET: SECRET_A }, "rotate");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      "SERVER_SECRET is set in the environment, so the stored secret is not in use. Rotate by environment instead",
    );
    expect(refused.stderr + refused.stdout).not.toContain(SECRET_A);

    const after = await bed.instance({ SERVER_SECRET: SECRET_B, SERVER_SECRET_PREVIOUS: `${SECRET_A}, ${SECRET_B}` });
    expect(after.t.services.secrets).toEqual({ current: SECRET_B, previous: [SECRET_A] });
    await bed.expectWorking(after, old);
    const fresh = await bed.issue(after);
    await bed.expectKeyedWith(after, fresh, SECRET_B);
    await after.close();

    const later = await bed.instance({ SERVER_SECRET: SECRET_B });
    await bed.expectRefused(later, old);
    await bed.expectWorking(later, fresh);
    await later.close();
  });

  it("keeps the generated secret as a previous key when SERVER_SECRET first overrides it", async () => {
    const before = await bed.instance();
    const generated = before.t.services.secrets.current;
    const old = await bed.issue(before);
    await before.close();

    const after = await bed.instance({ SERVER_SECRET: SECRET_B });
    expect(after.t.services.secrets).toEqual({ current: SECRET_B, previous: [generated] });
    await bed.expectWorking(after, old);
    await after.close();
  });

  it(
    "lists both commands in the CLI's help",
    async () => {
      const { code, stdout } = await runAdmin({ DATABASE_URL: bed.databaseUrl }, "secret", "--help");
      expect(code).toBe(0);
      expect(stdout).toContain("rotate");
      expect(stdout).toContain("retire-previous");
    },
    SLOW,
  );
});

describe("a payment's receipt queued before a rotation and sent after", () => {
  it("carries the code the payment was issued, which redeems", async () => {
    const before = await bed.instance();
    const intentId = await bed.payForPack(before, "early@example.com");
    await before.close();
    expect((await secretAdmin({}, "rotate")).code).toBe(0);

    const after = await bed.instance();
    const typed = creditCodeIn(await bed.receiptTo(after, "early@example.com"));
    expect(typed).not.toBe("");
    expect(typed).not.toBe(deriveCreditCode(after.t.services.secrets.current, intentId));
    expect(await (await bed.redeem(after, typed)).json()).toMatchObject({ unlocked: true, credits_remaining: 3 });
    await after.close();
  });

  it("says the code can no longer be shown, rather than showing one that fails, once its key was retired", async () => {
    const before = await bed.instance();
    const intentId = await bed.payForPack(before, "late@example.com");
    await before.close();
    expect((await secretAdmin({}, "rotate")).code).toBe(0);
    expect((await secretAdmin({}, "retire-previous")).code).toBe(0);

    const after = await bed.instance();
    const text = await bed.receiptTo(after, "late@example.com");
    expect(text).toContain("4 credits left (of 5), but your credit code can no longer be shown here");
    expect(text).toContain(intentId);
    expect(text).not.toMatch(CREDIT_CODE_IN_TEXT);
    expect(await creditCodeHash(after.t.services.database.client, paymentCodeId(intentId))).not.toBeNull();
    await after.close();
  });
});
