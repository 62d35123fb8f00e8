import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Database } from "../../api/db/database.ts";
import { migrate } from "../../api/db/migrate.ts";
import { runAdmin } from "../helpers/admin-cli.ts";

/**
 * Rows as an older version could store them, or as anything writing around the API can: an agent
 * named with the escapes of issue 24's probe (clear the screen, set the window title, ring the
 * bell), a person whose name hides a right-to-left override and a CSI, interests and use cases with
 * ESC, NUL-free but full of what a terminal acts on.
 */
const PROBE = "X\u001b[2J\u001b]0;PWNED\u0007";
const REVERSED = "evil\u202Etxt.exe";
const CSI = "name\u009b2J";

/** What must never reach a staff terminal raw: controls (but line breaks, LF or CRLF), DEL, C1, bidi. */
const RAW_UNSAFE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters the test looks for
  /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]|\r(?!\n)/u;

let dir: string;
let env: NodeJS.ProcessEnv;
const admin = (...args: string[]) => runAdmin(env, ...args);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "admin-terminal-"));
  const file = join(dir, "service.db");
  env = { ...process.env, DATABASE_URL: `file:${file}`, NODE_ENV: "test", LOG_LEVEL: "silent" };
  const database = new Database({ url: `file:${file}`, authToken: undefined, timeoutMs: 5_000 });
  await migrate(database.client);
  const at = "2026-11-20T10:00:00.000Z";
  await database.client.batch([
    {
      sql: "INSERT INTO agents (id, agent_name, agent_type, operator_type, principal_contact, trust, registered_by, created_at) VALUES ('ag_probe', ?, ?, 'company', NULL, 'unverified', 'api', ?)",
      args: [PROBE, REVERSED, at],
    },
    {
      sql: "INSERT INTO agent_waitlist_entries (agent_id, id, agent_name, agent_type, operator_type, principal_contact, use_cases, capabilities, tools_used, consent_version, joined_at) VALUES ('ag_probe', 'awl_probe', ?, 'assistant', 'company', NULL, ?, '[]', ?, 'privacy-2026-11-01', ?)",
      args: [PROBE, JSON.stringify([`read\u001b[31m docs`, "two\nlines"]), JSON.stringify([CSI]), at],
    },
    {
      sql: "INSERT INTO waitlist_signups (email, name, interests, consent_version, legend_terms_version, legend, signed_up_at, updated_at) VALUES ('ada@example.com', ?, ?, 'privacy-2026-11-01', NULL, 0, ?, ?)",
      args: [REVERSED, JSON.stringify([PROBE, CSI]), at, at],
    },
  ]);
  database.close();
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("what the staff CLI prints", { timeout: 90_000 }, () => {
  it("goes through scripts/admin/terminal.ts only: no command writes to the console or stdout itself", () => {
    const folder = join(process.cwd(), "scripts", "admin");
    const direct = readdirSync(folder)
      .filter((file) => file !== "terminal.ts")
      .flatMap((file) =>
        readFileSync(join(folder, file), "utf8")
          .split("\n")
          .map((line, index) => ({ at: `scripts/admin/${file}:${index + 1}`, line }))
          .filter(({ line }) => /\bconsole\.(log|error|warn|info)\(|process\.(stdout|stderr)\.write\(/.test(line))
          .map(({ at }) => at),
      );
    expect(direct).toEqual([]);
    expect(readFileSync(join(process.cwd(), "scripts", "admin.ts"), "utf8")).not.toMatch(/console\.|\.write\(/);
  });

  it.each([
    ["agents list", ["agents", "list"]],
    ["waitlists export of the people (CSV to stdout)", ["waitlists", "export", "--list", "people"]],
    ["waitlists export of the agents (CSV to stdout)", ["waitlists", "export", "--list", "agents"]],
  ])("spells out every escape, override and control in %s", async (_name, args) => {
    const run = await admin(...args);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(RAW_UNSAFE);
    expect(run.stdout).toMatch(/\\u001b|\\u202e|\\u009b/);
  });

  it("shows the probe's escapes as text in the agents table", async () => {
    const run = await admin("agents", "list");
    expect(run.stdout).toContain("X\\u001b[2J\\u001b]0;PWNED\\u0007");
    expect(run.stdout).toContain("evil\\u202etxt.exe");
  });

  it("keeps --json parseable, giving scripts the stored values back exactly", async () => {
    const run = await admin("agents", "list", "--json");
    expect(run.stdout).not.toMatch(RAW_UNSAFE);
    const [agent] = JSON.parse(run.stdout) as { agent_name: string; agent_type: string }[];
    expect(agent).toMatchObject({ agent_name: PROBE, agent_type: REVERSED });
    const exported = await admin("waitlists", "export", "--list", "people", "--format", "json");
    expect(exported.stdout).not.toMatch(RAW_UNSAFE);
    expect(JSON.parse(exported.stdout)).toEqual([expect.objectContaining({ name: REVERSED, interests: [PROBE, CSI] })]);
  });

  it("writes an export file with the same characters spelled out", async () => {
    const out = join(dir, "agents.csv");
    const run = await admin("waitlists", "export", "--list", "agents", "--out", out);
    expect(run.code).toBe(0);
    const written = await readFile(out, "utf8");
    expect(written).not.toMatch(RAW_UNSAFE);
    // A cell's own line break stays, inside its quotes (RFC 4180): it is text, not an escape.
    expect(written).toContain('"read\\u001b[31m docs; two\nlines"');
  });
});
