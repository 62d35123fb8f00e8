import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visibleText } from "../../../api/checks/engine/parse/html.ts";
import { setSwitch } from "../../../api/platform/state/switches-sql.ts";
import { registerAgent } from "../../helpers/agents.ts";
import { mcpCall, type OAuthBed, pkce, RawClient, startOAuthBed } from "../../helpers/oauth.ts";
import { NEW_AGENT, Person, parseForm } from "../../helpers/oauth-person.ts";

let bed: OAuthBed;
let client: RawClient;
beforeAll(async () => {
  bed = await startOAuthBed();
  client = new RawClient(bed.base);
  await client.register({ client_name: "Consent Tester" });
});
afterAll(() => bed?.close());

/** A person opens the client's authorization URL and stops at the consent page. */
async function openConsent(person: Person, overrides: Record<string, string | null> = {}) {
  const page = await person.follow(client.authorizationUrl(pkce().challenge, overrides));
  expect(page.response.status).toBe(200);
  return page;
}

describe("the consent page", () => {
  it("says who asks, where it sends the person back, what it may do, where, and for how long", async () => {
    const page = await openConsent(new Person(bed.base), { scope: "waitlist:write survey:write openid" });
    const text = visibleText(page.body);
    expect(text).toContain("Allow Consent Tester to act for an agent registration?");
    expect(text).toMatch(/Consent Tester \(self-asserted\)/);
    expect(text).toContain(client.clientId);
    expect(text).toContain("127.0.0.1:9");
    expect(text).toContain("Every address this app returns to is on this device");
    expect(text).toContain("Join the agent waiting list (once per registration).");
    expect(text).toContain("Answer the agent survey (once per registration).");
    expect(text).toMatch(/never granted here: openid/);
    expect(text).toContain(bed.mcpAgent);
    expect(text).toMatch(/lasts 60 minutes.*up to 30 days/);
  });

  it("is its own document: no framing, forms only here and to the validated redirect, nothing remote, never cached", async () => {
    const page = await openConsent(new Person(bed.base));
    const policy = String(page.response.headers.get("content-security-policy"));
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("form-action 'self' http://127.0.0.1:9");
    expect(policy).not.toContain("script-src");
    expect(page.response.headers.get("x-frame-options")).toBe("DENY");
    expect(page.response.headers.get("cache-control")).toBe("no-store");
    const urls = [...page.body.matchAll(/\b(?:href|src|action)="([^"]*)"/g)].map((match) => match[1] ?? "");
    expect(urls.filter((url) => /^[a-z]+:|^\/\//i.test(url))).toEqual([]);
    expect(page.body).not.toContain("<script");
    const cookie = page.response.headers.getSetCookie().find((line) => line.startsWith("oauth_csrf="));
    expect(cookie).toMatch(/HttpOnly; SameSite=Strict/);
  });

  it("refuses a post without its CSRF token, or from another site, with an error page and no redirect", async () => {
    const outcome = await new Person(bed.base).signIn(client.authorizationUrl(pkce().challenge), {
      who: "new",
      fields: NEW_AGENT,
      dropCsrf: true,
    });
    expect(outcome.redirect).toBeNull();
    expect(outcome.last.status).toBe(403);
    expect(outcome.lastBody).toContain("security token");
    const person = new Person(bed.base);
    const page = await openConsent(person);
    const form = parseForm(page.body);
    const forged = await fetch(new URL(form.action, bed.base), {
      method: "POST",
      redirect: "manual",
      headers: {
        cookie: person.jar.header(new URL(form.action, bed.base)),
        "content-type": "application/x-www-form-urlencoded",
        origin: "https://attacker.example",
      },
      body: new URLSearchParams([...form.fields, ["decision", "allow"]]),
    });
    expect(forged.status).toBe(403);
    expect(forged.headers.get("location")).toBeNull();
  });

  it("sends Deny back to the client as access_denied, with the state and the issuer", async () => {
    const outcome = await new Person(bed.base).signIn(client.authorizationUrl(pkce().challenge), { decision: "deny" });
    expect(Object.fromEntries(outcome.redirect?.searchParams ?? [])).toEqual({
      error: "access_denied",
      error_description: "The request was declined on the consent page.",
      state: "state-123",
      iss: bed.base,
    });
  });

  it("shows a new registration's mistakes next to their fields, keeps what was typed, and redirects nowhere", async () => {
    const outcome = await new Person(bed.base).signIn(client.authorizationUrl(pkce().challenge), {
      who: "new",
      fields: { agent_name: "", agent_type: "crawler", principal_contact: "not-an-address" },
    });
    expect(outcome.redirect).toBeNull();
    expect(outcome.last.status).toBe(422);
    expect(outcome.lastBody).toContain(
      'id="agent_name" name="agent_name" value="" aria-describedby="agent_name-hint agent_name-error" aria-invalid="true"',
    );
    expect(outcome.lastBody).toContain('value="crawler"');
    expect(outcome.lastBody).toContain('role="alert"');
  });

  it("lets a person prove an existing registration with its agent token, which it never shows again", async () => {
    const { agent_id } = await registerAgent(bed.t, "Existing");
    const { token } = await bed.t.services.agents.issueToken(agent_id, ["waitlist:write", "monitors:write"], "ops");
    const wrong = await new Person(bed.base).signIn(client.authorizationUrl(pkce().challenge), {
      who: "existing",
      token: `agt_${"x".repeat(38)}`,
    });
    expect(wrong.last.status).toBe(401);
    expect(wrong.lastBody).not.toContain("xxxxxxxx");
    const { verifier, challenge } = pkce();
    const outcome = await new Person(bed.base).signIn(
      client.authorizationUrl(challenge, { scope: "waitlist:write survey:write monitors:write" }),
      { who: "existing", token },
    );
    const code = String(outcome.redirect?.searchParams.get("code"));
    const exchanged = await client.exchange(code, { code_verifier: verifier });
    // What the proving token carries, no more: it has no survey:write.
    expect(exchanged.body.scope).toBe("waitlist:write monitors:write");
    const standing = (await (await mcpCall(bed.mcpAgent, String(exchanged.body.access_token))).json()) as {
      result: { structuredContent: { agent_id: string } };
    };
    expect(standing.result.structuredContent.agent_id).toBe(agent_id);
  });

  it("is remembered per registration, client, scopes and redirect: asked once, asked again for another redirect", async () => {
    const person = new Person(bed.base);
    const first = await person.signIn(client.authorizationUrl(pkce().challenge), { who: "new", fields: NEW_AGENT });
    expect(first.consentHtml).not.toBeNull();
    const again = await person.signIn(client.authorizationUrl(pkce().challenge));
    expect(again.consentHtml).toBeNull();
    expect(again.redirect?.searchParams.get("code")).toBeTruthy();
    const otherPort = await person.signIn(
      client.authorizationUrl(pkce().challenge, { redirect_uri: "http://127.0.0.1:10/callback" }),
      { who: "session" },
    );
    expect(otherPort.consentHtml).toContain("Continue as <strong>Docs Scout</strong>");
    expect(otherPort.redirect?.origin).toBe("http://127.0.0.1:10");
  });

  it("lets a browser signed in as one registration choose another: it then acts for the new one", async () => {
    const person = new Person(bed.base);
    const first = await person.signIn(client.authorizationUrl(pkce().challenge), {
      who: "new",
      fields: { ...NEW_AGENT, agent_name: "First" },
    });
    expect(first.redirect?.searchParams.get("code")).toBeTruthy();
    const { verifier, challenge } = pkce();
    const second = await person.signIn(client.authorizationUrl(challenge, { resource: bed.base }), {
      who: "new",
      fields: { ...NEW_AGENT, agent_name: "Second" },
    });
    expect(second.consentHtml).toContain("Continue as <strong>First</strong>");
    const code = String(second.redirect?.searchParams.get("code"));
    const token = String(
      (await client.exchange(code, { code_verifier: verifier, resource: bed.base })).body.access_token,
    );
    const me = await fetch(`${bed.base}/api/v1/agents/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await me.json()) as { agent_name: string }).agent_name).toBe("Second");
    // The browser now acts for the second one.
    const third = await person.follow(client.authorizationUrl(pkce().challenge, { scope: "survey:write" }));
    expect(third.body).toContain("Continue as <strong>Second</strong>");
  });

  it("offers no new registration while registrations are closed, and proving one still works", async () => {
    const db = bed.t.services.database.client;
    await setSwitch(db, "agent_register", false, "test", new Date().toISOString());
    try {
      const page = await openConsent(new Person(bed.base));
      expect(page.body).toMatch(/id="who-new" name="who" value="new" disabled/);
      const blocked = await new Person(bed.base).signIn(client.authorizationUrl(pkce().challenge), {
        who: "new",
        fields: NEW_AGENT,
      });
      expect(blocked.last.status).toBe(503);
    } finally {
      await setSwitch(db, "agent_register", true, "test", new Date().toISOString());
    }
  });
});
