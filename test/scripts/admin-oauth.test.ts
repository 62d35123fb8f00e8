import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oauthCommand } from "../../scripts/admin/oauth.ts";
import { runAdminCommand } from "../helpers/admin-cli.ts";
import { mcpCall, type OAuthBed, pkce, RawClient, startOAuthBed } from "../helpers/oauth.ts";
import { NEW_AGENT, Person } from "../helpers/oauth-person.ts";

let bed: OAuthBed;
let saved: NodeJS.ProcessEnv;
beforeAll(async () => {
  bed = await startOAuthBed();
  saved = { ...process.env };
  // The commands read their configuration from the environment, as `npm run admin` does.
  Object.assign(process.env, { DATABASE_URL: bed.t.config.database.url, NODE_ENV: "test", LOG_LEVEL: "silent" });
});
afterAll(async () => {
  process.env = saved;
  await bed?.close();
});

const oauth = (...args: string[]) => runAdminCommand(oauthCommand, ...args);

/** A client registers, a person allows it as a new registration; answers the client, the person and the tokens. */
async function grantedClient(name: string) {
  const client = new RawClient(bed.base);
  await client.register({ client_name: name });
  const person = new Person(bed.base);
  const { verifier, challenge } = pkce();
  const outcome = await person.signIn(client.authorizationUrl(challenge), {
    who: "new",
    fields: { ...NEW_AGENT, agent_name: `${name} agent` },
  });
  const tokens = await client.exchange(String(outcome.redirect?.searchParams.get("code")), { code_verifier: verifier });
  return { client, person, access: String(tokens.body.access_token), refresh: String(tokens.body.refresh_token) };
}

describe("npm run admin -- oauth", () => {
  it("lists grants by client without a token in sight, and revokes a client's: its tokens are refused, the other client's are not", async () => {
    const kept = await grantedClient("Kept");
    const dropped = await grantedClient("Dropped");
    const listed = await oauth("grants", "--client", dropped.client.clientId, "--json");
    expect(listed.code).toBe(0);
    const rows = JSON.parse(listed.stdout) as Record<string, unknown>[];
    expect(rows).toEqual([
      expect.objectContaining({
        client_id: dropped.client.clientId,
        client_name: "Dropped",
        agent_name: "Dropped agent",
        scopes: [`${bed.mcpAgent}: waitlist:write survey:write`],
        live_tokens: 2,
      }),
    ]);
    expect(listed.stdout).not.toContain(dropped.access);
    const revoked = await oauth("revoke", "--client", dropped.client.clientId);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toMatch(/Revoked 1 grant\(s\)/);
    expect((await mcpCall(bed.mcpAgent, dropped.access)).status).toBe(401);
    expect((await mcpCall(bed.mcpAgent, kept.access)).status).toBe(200);
    // The consent it had is gone too: the same person is asked again.
    const again = await dropped.person.signIn(dropped.client.authorizationUrl(pkce().challenge), { who: "session" });
    expect(again.consentHtml).not.toBeNull();
    expect(JSON.parse((await oauth("grants", "--client", dropped.client.clientId, "--json")).stdout)).toHaveLength(1);
  });

  it("revokes a registration's grants across clients, and says what it needs", async () => {
    const one = await grantedClient("Agent-wide");
    const standing = (await (await mcpCall(bed.mcpAgent, one.access)).json()) as {
      result: { structuredContent: { agent_id: string } };
    };
    const agent = standing.result.structuredContent.agent_id;
    expect((await oauth("revoke", "--agent", agent)).code).toBe(0);
    expect((await mcpCall(bed.mcpAgent, one.access)).status).toBe(401);
    const none = await oauth("revoke");
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("Say which grants");
    expect((await oauth("revoke", "--grant", "no-such-grant")).stderr).toContain("No grant matches");
  });
});
