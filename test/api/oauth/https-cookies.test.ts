import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OAuthBed, pkce, RawClient, startOAuthBed } from "../../helpers/oauth.ts";
import { NEW_AGENT, Person } from "../../helpers/oauth-person.ts";
import { testBuild } from "../../helpers/test-build.ts";

// The public URL is https (a proxy in front terminates TLS); the socket here is plain http on loopback.
let bed: OAuthBed;
let client: RawClient;
beforeAll(async () => {
  const { port } = testBuild();
  bed = await startOAuthBed({ env: { SITE_URL: `https://127.0.0.1:${port}` } });
  client = new RawClient(`http://127.0.0.1:${port}`);
  await client.register();
});
afterAll(() => bed?.close());

describe("on an https site, every cookie of the sign-in", () => {
  it("is Secure and prefixed: __Host- where its path is /, __Secure- where the library scopes it to a path", async () => {
    const person = new Person(client.base, bed.base);
    const authorization = client.authorizationUrl(pkce().challenge, { resource: `${bed.base}/mcp/agent` });
    const started = await person.get(authorization);
    const consentPath = new URL(String(started.headers.get("location")), client.base);
    const page = await person.get(consentPath);
    const cookies = [...started.headers.getSetCookie(), ...page.headers.getSetCookie()];
    expect(cookies.length).toBeGreaterThanOrEqual(3);
    for (const cookie of cookies) {
      expect(cookie).toMatch(/^__(Host|Secure)-/);
      expect(cookie).toMatch(/; secure/i);
      expect(cookie).toMatch(/; httponly/i);
      if (cookie.startsWith("__Host-")) {
        expect(cookie).toMatch(/; path=\/(;|$)/i);
        expect(cookie).not.toMatch(/; domain=/i);
      }
    }
    expect(cookies.some((cookie) => cookie.startsWith("__Host-oauth_csrf="))).toBe(true);
    expect(cookies.some((cookie) => cookie.startsWith("__Secure-oauth_interaction="))).toBe(true);
    // The person's consent sets the session cookie, __Host- too.
    const outcome = await person.signIn(authorization, { who: "new", fields: NEW_AGENT });
    expect(outcome.redirect?.searchParams.get("iss")).toBe(bed.base);
    expect(person.jar.names()).toContain("__Host-oauth_session");
  });
});
