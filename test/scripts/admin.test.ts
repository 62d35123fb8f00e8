import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdmin } from "../helpers/admin-cli.ts";

let dir: string;
let env: NodeJS.ProcessEnv;

const admin = (...args: string[]) => runAdmin(env, ...args);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "admin-"));
  env = { ...process.env, DATABASE_URL: `file:${join(dir, "service.db")}`, NODE_ENV: "test" };
});
afterAll(() => rm(dir, { recursive: true, force: true }));

// Every call is a fresh Node process (about a second each, several under a loaded CI machine) and
// a test makes up to eight in a row, so these get more than the suite's default 20 s.
describe("npm run admin", { timeout: 90_000 }, () => {
  it("answers --help on every command", async () => {
    const commands = [
      [],
      ["switches"],
      ["switches", "set"],
      ["tokens", "issue"],
      ["tokens", "list"],
      ["tokens", "revoke"],
      ["trust", "set"],
      ["agents", "list"],
      ["waitlists", "export"],
      ["waitlists", "count"],
    ];
    const results = await Promise.all(commands.map((command) => admin(...command, "--help")));
    results.forEach(({ code, stdout }, index) => {
      expect(code, commands[index]?.join(" ")).toBe(0);
      expect(stdout, commands[index]?.join(" ")).toContain("USAGE");
    });
  });

  it("refuses to issue a credit code for an e-mail address holding a control character", async () => {
    const refused = await admin("credits", "issue", "2", "--email", "ops\u001b[2J@example.com");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("--email must be an e-mail address like name@example.com");
    expect(refused.stdout).not.toContain("Code:");
  });

  it("sets and lists switches", async () => {
    expect((await admin("switches", "set", "waitlist", "off", "--by", "ops")).stdout).toContain("waitlist is now off.");
    const switches = JSON.parse((await admin("switches", "list", "--json")).stdout) as {
      name: string;
      enabled: boolean;
      updated_by: string | null;
    }[];
    expect(switches.find((entry) => entry.name === "waitlist")).toMatchObject({ enabled: false, updated_by: "ops" });
    expect(switches.find((entry) => entry.name === "checks")).toMatchObject({ enabled: true, updated_by: null });
    const bad = await admin("switches", "set", "everything", "off");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("Unknown switch everything");
  });

  it("issues a token shown once, lists tokens without secrets, revokes, and sets trust", async () => {
    const issued = await admin("tokens", "issue", "--name", "Ops bot", "--scopes", "survey:write", "--label", "ci");
    const token = /Token:\s+(agt_\S+)/.exec(issued.stdout)?.[1] ?? "";
    const agentId = /Agent:\s+(ag_\S+)/.exec(issued.stdout)?.[1] ?? "";
    const tokenId = /Id:\s+(tok_\S+)/.exec(issued.stdout)?.[1] ?? "";
    expect(token).toMatch(/^agt_[0-9A-Za-z]{38}$/);
    const listing = (await admin("tokens", "list", "--json")).stdout;
    expect(listing).not.toContain(token);
    expect(JSON.parse(listing)).toEqual([
      expect.objectContaining({
        id: tokenId,
        agent_id: agentId,
        hint: `…${token.slice(-4)}`,
        scopes: ["survey:write"],
        revoked_at: null,
      }),
    ]);
    expect((await admin("tokens", "revoke", tokenId)).stdout).toContain(
      `Revoked ${tokenId}: every instance answers 401`,
    );
    expect((await admin("tokens", "revoke", tokenId)).code).toBe(1);
    expect((await admin("trust", "set", agentId, "verified")).stdout).toContain("is now verified");
    expect((await admin("trust", "set", agentId, "godlike")).stderr).toContain("Trust must be one of");
    expect((await admin("tokens", "issue", "--agent", agentId, "--scopes", "admin:everything")).stderr).toContain(
      "Unknown scope(s) admin:everything",
    );
  });

  it("exports the waiting lists as CSV and JSON and counts them", async () => {
    const { createClient } = await import("@libsql/client");
    const client = createClient({ url: String(env.DATABASE_URL) });
    await client.execute({
      sql: "INSERT INTO waitlist_signups (email, name, interests, consent_version, legend_terms_version, legend, signed_up_at, updated_at) VALUES (?, ?, ?, ?, NULL, 0, ?, ?)",
      args: [
        "ada@example.com",
        '=HYPERLINK("x")',
        '["checks"]',
        "privacy-2026-11-01",
        "2026-11-22T10:00:00.000Z",
        "2026-11-22T10:00:00.000Z",
      ],
    });
    client.close();
    const csv = (await admin("waitlists", "export", "--list", "people")).stdout;
    expect(csv.split("\r\n")[0]).toBe("email,name,interests,consent_version,legend_terms_version,legend,at");
    // A name that would run as a spreadsheet formula is neutralised.
    expect(csv).toContain(
      `ada@example.com,"'=HYPERLINK(""x"")",checks,privacy-2026-11-01,,false,2026-11-22T10:00:00.000Z`,
    );
    const out = join(dir, "people.json");
    expect((await admin("waitlists", "export", "--list", "people", "--format", "json", "--out", out)).stdout).toContain(
      "Wrote 1 signups",
    );
    expect(JSON.parse(await readFile(out, "utf8"))).toHaveLength(1);
    expect(JSON.parse((await admin("waitlists", "count", "--json")).stdout)).toEqual({
      people: 1,
      agents: 0,
      survey_answers: 0,
    });
  });
});
