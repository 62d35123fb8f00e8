import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/free-port.ts";
import { mcpCall, pkce, RawClient } from "../helpers/oauth.ts";
import { NEW_AGENT, Person } from "../helpers/oauth-person.ts";
import { type RunningServer, startServer } from "../helpers/server-process.ts";

/** MCP Inspector 2's launcher (a dev dependency): `--cli` runs it without its web UI. */
const INSPECTOR = join(process.cwd(), "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js");

let server: RunningServer;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "inspector-"));
  server = await startServer({ DATABASE_URL: `file:${join(dir, "service.db")}` });
});
afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** Output of a process so far, and a promise of its exit code. */
function watch(child: ChildProcess) {
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { stdout: () => stdout, stderr: () => stderr, exited };
}

/** The authorization URL the CLI asks a person to open ("Please navigate to: …"). */
async function authorizationUrl(output: ReturnType<typeof watch>): Promise<URL> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const found = /navigate to: (\S+)/.exec(output.stderr())?.[1];
    if (found) return new URL(found);
    if (Date.now() > deadline) throw new Error(`no authorization URL:\n${output.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("MCP Inspector 2 (its CLI mode, headless)", () => {
  it("signs in to /mcp/agent on its own (discovery, DCR, PKCE, resource), a person consents, and it calls a tool", async () => {
    const callback = `http://127.0.0.1:${await freePort()}/oauth/callback`;
    const child = spawn(
      process.execPath,
      [
        INSPECTOR,
        "--cli",
        `${server.url}/mcp/agent`,
        "--transport",
        "http",
        "--method",
        "tools/call",
        "--tool-name",
        "read_agent_standing",
        "--callback-url",
        callback,
        "--format",
        "json",
      ],
      {
        // Interactive OAuth without a terminal (its own switch); no browser to open (no xdg-open on the PATH),
        // and its keychain and catalogue in a directory of the test's.
        env: {
          ...process.env,
          MCP_AUTO_OPEN_ENABLED: "true",
          PATH: dirname(process.execPath),
          HOME: dir,
          MCP_STORAGE_DIR: join(dir, "inspector"),
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const output = watch(child);
    try {
      const url = await authorizationUrl(output);
      expect(url.origin + url.pathname).toBe(`${server.url}/oauth/authorize`);
      expect(url.searchParams.get("resource")).toBe(`${server.url}/mcp/agent`);
      expect(url.searchParams.get("code_challenge_method")).toBe("S256");
      const outcome = await new Person(server.url).signIn(url, {
        who: "new",
        fields: { ...NEW_AGENT, agent_name: "Inspector" },
      });
      expect(outcome.redirect?.href.startsWith(callback)).toBe(true);
      expect(outcome.redirect?.searchParams.get("iss")).toBe(server.url);
      // The browser lands on the CLI's loopback listener, which takes the code and finishes the flow.
      expect((await fetch(outcome.redirect ?? "")).status).toBe(200);
      expect(await output.exited).toBe(0);
      const result = JSON.parse(output.stdout()) as { result: { structuredContent: Record<string, unknown> } };
      expect(result.result.structuredContent).toMatchObject({ agent_name: "Inspector", trust: "unverified" });
    } finally {
      if (child.exitCode === null) child.kill();
    }
  }, 120_000);
});

describe("OAuth tokens on the real server, hot routes and all", () => {
  it("are answered at GET /api/v1/agents/me only when issued for the API, even once their owner is in memory", async () => {
    const client = new RawClient(server.url);
    await client.register();
    const person = new Person(server.url);
    const tokenFor = async (resource: string) => {
      const { verifier, challenge } = pkce();
      const outcome = await person.signIn(client.authorizationUrl(challenge, { resource }), {
        who: "new",
        fields: NEW_AGENT,
      });
      const code = String(outcome.redirect?.searchParams.get("code"));
      return String((await client.exchange(code, { code_verifier: verifier, resource })).body.access_token);
    };
    const forMcp = await tokenFor(`${server.url}/mcp/agent`);
    const forApi = await tokenFor(server.url);
    const me = (token: string) =>
      fetch(`${server.url}/api/v1/agents/me`, { headers: { authorization: `Bearer ${token}` } });
    // The MCP token's owner is read and kept in memory at /mcp/agent; the standing route answers busy
    // tokens from memory on node:http (api/fast-path): an owner with an audience never takes that path.
    expect((await mcpCall(`${server.url}/mcp/agent`, forMcp)).status).toBe(200);
    for (let attempt = 0; attempt < 3; attempt++) expect((await me(forMcp)).status).toBe(401);
    for (let attempt = 0; attempt < 3; attempt++) expect((await me(forApi)).status).toBe(200);
  });
});
