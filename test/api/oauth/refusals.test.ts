import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpCall, type OAuthBed, pkce, RawClient, startOAuthBed } from "../../helpers/oauth.ts";
import { NEW_AGENT, Person } from "../../helpers/oauth-person.ts";

let bed: OAuthBed;
let client: RawClient;
beforeAll(async () => {
  bed = await startOAuthBed();
  client = new RawClient(bed.base);
  expect((await client.register()).status).toBe(201);
});
afterAll(() => bed?.close());

/** A person consents to a fresh request; answers the code and the verifier that goes with it. */
async function consentedCode(
  overrides: Record<string, string | null> = {},
): Promise<{ code: string; verifier: string }> {
  const { verifier, challenge } = pkce();
  const outcome = await new Person(bed.base).signIn(client.authorizationUrl(challenge, overrides), {
    who: "new",
    fields: NEW_AGENT,
  });
  const code = outcome.redirect?.searchParams.get("code");
  if (!code) throw new Error(`no code: ${outcome.redirect?.href ?? outcome.lastBody.slice(0, 200)}`);
  return { code, verifier };
}

describe("the token endpoint refuses", () => {
  it("a replayed code with invalid_grant, and revokes what the first exchange issued", async () => {
    const { code, verifier } = await consentedCode();
    const first = await client.exchange(code, { code_verifier: verifier });
    expect(first.status).toBe(200);
    expect((await mcpCall(bed.mcpAgent, String(first.body.access_token))).status).toBe(200);
    expect(await client.exchange(code, { code_verifier: verifier })).toMatchObject({
      status: 400,
      body: { error: "invalid_grant" },
    });
    expect((await mcpCall(bed.mcpAgent, String(first.body.access_token))).status).toBe(401);
  });

  it("a code without its verifier, and a code with the wrong one (PKCE)", async () => {
    const { code, verifier } = await consentedCode();
    expect(await client.exchange(code, {})).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    const another = await consentedCode();
    expect(await client.exchange(another.code, { code_verifier: pkce().verifier })).toMatchObject({
      status: 400,
      body: { error: "invalid_grant" },
    });
    // The refusal was the verifier's: the same first code with its own verifier is still exchanged.
    expect((await client.exchange(code, { code_verifier: verifier })).status).toBe(200);
  });

  it("a resource other than the one the code was granted for (RFC 8707)", async () => {
    const { code, verifier } = await consentedCode();
    expect(await client.exchange(code, { code_verifier: verifier, resource: bed.base })).toMatchObject({
      status: 400,
      body: { error: "invalid_target" },
    });
  });

  it("errors as JSON bodies with CORS, so browser clients can read them", async () => {
    const response = await fetch(`${bed.base}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost:6274" },
      body: new URLSearchParams({ grant_type: "authorization_code", code: "nope", client_id: client.clientId }),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("access-control-allow-origin")).toBeTruthy();
    expect(await response.json()).toMatchObject({ error: expect.any(String) });
  });
});

describe("the authorization endpoint", () => {
  it("never redirects to an unregistered redirect_uri: an error page instead", async () => {
    const { challenge } = pkce();
    const url = client.authorizationUrl(challenge, { redirect_uri: "https://attacker.example/steal" });
    const response = await fetch(url, { redirect: "manual", headers: { accept: "text/html" } });
    expect(response.status).toBe(400);
    expect(response.headers.get("location")).toBeNull();
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(await response.text()).toMatch(/Sign-in stopped[\s\S]*redirect_uri/);
  });

  it("writes the URL a consent returns to from the public address, whatever X-Forwarded-Host a request claims", async () => {
    const forged = await fetch(client.authorizationUrl(pkce().challenge), {
      redirect: "manual",
      headers: { "x-forwarded-host": "attacker.example", "x-forwarded-proto": "https" },
    });
    expect(forged.status).toBe(303);
    const uid = String(forged.headers.get("location")).split("/").pop();
    const stored = await bed.t.services.database.client.execute(
      "SELECT payload FROM oauth_records WHERE model = 'Interaction'",
    );
    const returnTo = stored.rows
      .map((row) => String(JSON.parse(String(row.payload)).returnTo))
      .find((url) => url.endsWith(`/${uid}`));
    expect(returnTo).toBe(`${bed.base}/oauth/authorize/${uid}`);
  });

  it("requires resource, and says so to the client's registered redirect URI with the state and the issuer", async () => {
    const { challenge } = pkce();
    const response = await fetch(client.authorizationUrl(challenge, { resource: null }), { redirect: "manual" });
    const location = new URL(String(response.headers.get("location")));
    expect(location.origin + location.pathname).toBe(client.redirectUri);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      error: "invalid_target",
      state: "state-123",
      iss: bed.base,
    });
  });

  it("refuses a resource this server does not protect, and PKCE other than S256", async () => {
    const { challenge } = pkce();
    const elsewhere = await fetch(client.authorizationUrl(challenge, { resource: "https://other.example/mcp" }), {
      redirect: "manual",
    });
    expect(new URL(String(elsewhere.headers.get("location"))).searchParams.get("error")).toBe("invalid_target");
    const plain = await fetch(client.authorizationUrl(challenge, { code_challenge_method: "plain" }), {
      redirect: "manual",
    });
    expect(new URL(String(plain.headers.get("location"))).searchParams.get("error")).toBe("invalid_request");
  });
});

describe("dynamic client registration (RFC 7591)", () => {
  it("accepts a loopback redirect and then any port of it (RFC 8252 §7.3)", async () => {
    const loopback = new RawClient(bed.base, "http://127.0.0.1:33418/callback");
    expect((await loopback.register()).status).toBe(201);
    const { challenge } = pkce();
    const otherPort = loopback.authorizationUrl(challenge, { redirect_uri: "http://127.0.0.1:50123/callback" });
    const response = await fetch(otherPort, { redirect: "manual" });
    expect(response.status).toBe(303);
    expect(new URL(String(response.headers.get("location")), bed.base).pathname).toMatch(/^\/oauth\/consent\//);
  });

  it("refuses http to another host, and answers JSON with CORS", async () => {
    const response = await fetch(`${bed.base}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://localhost:6274" },
      body: JSON.stringify({ redirect_uris: ["http://evil.example/callback"], token_endpoint_auth_method: "none" }),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(await response.json()).toMatchObject({ error: "invalid_redirect_uri" });
  });

  it("stores a confidential client's secret as a hash, and still accepts the secret", async () => {
    const confidential = new RawClient(bed.base);
    const registered = await confidential.register({ token_endpoint_auth_method: "client_secret_post" });
    const secret = String(registered.body.client_secret);
    expect(secret.length).toBeGreaterThan(20);
    const stored = await bed.t.services.database.client.execute(
      "SELECT payload FROM oauth_records WHERE model = 'Client'",
    );
    expect(stored.rows.map((row) => String(row.payload)).join("\n")).not.toContain(secret);
    const { challenge, verifier } = pkce();
    const outcome = await new Person(bed.base).signIn(confidential.authorizationUrl(challenge), {
      who: "new",
      fields: NEW_AGENT,
    });
    const code = String(outcome.redirect?.searchParams.get("code"));
    expect(await confidential.exchange(code, { code_verifier: verifier, client_secret: "wrong" })).toMatchObject({
      status: 401,
      body: { error: "invalid_client" },
    });
    const { code: second, verifier: secondVerifier } = await (async () => {
      const pair = pkce();
      const again = await new Person(bed.base).signIn(confidential.authorizationUrl(pair.challenge), {
        who: "new",
        fields: NEW_AGENT,
      });
      return { code: String(again.redirect?.searchParams.get("code")), verifier: pair.verifier };
    })();
    expect((await confidential.exchange(second, { code_verifier: secondVerifier, client_secret: secret })).status).toBe(
      200,
    );
  });
});

describe("the protected resources", () => {
  it("refuse a token issued for the other one: an MCP token at the API, an API token at /mcp/agent", async () => {
    const forMcp = await consentedCode();
    const mcpToken = String((await client.exchange(forMcp.code, { code_verifier: forMcp.verifier })).body.access_token);
    const forApi = await consentedCode({ resource: bed.base });
    const apiToken = String(
      (await client.exchange(forApi.code, { code_verifier: forApi.verifier, resource: bed.base })).body.access_token,
    );
    const me = (token: string) =>
      fetch(`${bed.base}/api/v1/agents/me`, { headers: { authorization: `Bearer ${token}` } });
    expect((await me(apiToken)).status).toBe(200);
    const atApi = await me(mcpToken);
    expect(atApi.status).toBe(401);
    expect(((await atApi.json()) as { detail: string }).detail).toContain(`issued for ${bed.mcpAgent}`);
    expect((await mcpCall(bed.mcpAgent, mcpToken)).status).toBe(200);
    const atMcp = await mcpCall(bed.mcpAgent, apiToken);
    expect(atMcp.status).toBe(401);
    expect(atMcp.headers.get("www-authenticate")).toContain('error="invalid_token"');
    // The public MCP endpoint takes agent tokens only: an OAuth token is refused by its tools.
    const publicMcp = await mcpCall(`${bed.base}/mcp`, mcpToken);
    expect(JSON.stringify(await publicMcp.json())).toContain("issued for");
  });

  it("/mcp/agent asks for a token whatever the method: a GET without one is a 401, with one (even a bad one) a 405", async () => {
    const anonymous = await fetch(bed.mcpAgent, { headers: { accept: "text/event-stream" } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toContain("resource_metadata=");
    const { code, verifier } = await consentedCode();
    const token = String((await client.exchange(code, { code_verifier: verifier })).body.access_token);
    const signedIn = await fetch(bed.mcpAgent, { headers: { authorization: `Bearer ${token}` } });
    expect(signedIn.status).toBe(405);
    expect(signedIn.headers.get("allow")).toBe("POST");
    // Never a 401 to a client that has a token: the SDK opens this stream beside its POSTs, and two
    // refreshes at once would look like a replayed refresh token and end the grant.
    expect((await fetch(bed.mcpAgent, { headers: { authorization: "Bearer oat_expired" } })).status).toBe(405);
  });

  it("/oauth/ serves only what is switched on: anything else is a 404 problem", async () => {
    for (const path of ["/oauth/device", "/oauth/end-session", "/oauth/introspect", "/oauth/nothing"]) {
      const response = await fetch(`${bed.base}${path}`, { method: "POST" });
      expect(response.status, path).toBe(404);
      expect(response.headers.get("content-type"), path).toBe("application/problem+json");
    }
  });

  it("/mcp/agent always answers 401 without a token, naming its metadata and scope, exposed to browsers", async () => {
    const response = await mcpCall(bed.mcpAgent, null, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "probe", version: "1" } },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(
      `Bearer realm="agents", resource_metadata="${bed.base}/.well-known/oauth-protected-resource/mcp/agent", scope="waitlist:write survey:write"`,
    );
    expect(response.headers.get("access-control-expose-headers")).toContain("WWW-Authenticate");
    // The public endpoint never challenges: the same initialize is answered.
    const open = await mcpCall(`${bed.base}/mcp`, null, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "probe", version: "1" } },
    });
    expect(open.status).toBe(200);
    expect(open.headers.get("www-authenticate")).toBeNull();
  });
});
