import { describe, expect, it } from "vitest";
import { json, page } from "../../../fixtures/sites/static-site.ts";
import { checkStaticSite, messageOf, statusOf } from "./_helpers.ts";

/** A failing finding names every problem it found, and the cautions beside them, not only the first. */
describe("a failing check names every problem it found", () => {
  it("oauth.prm: a resource on another origin and an authorization server over plain http", async () => {
    const result = await checkStaticSite(
      {
        "/": page("<h1>API</h1>"),
        "/.well-known/oauth-protected-resource": json({
          resource: "https://elsewhere.example/api",
          authorization_servers: ["http://auth.example"],
        }),
      },
      { profile: ["api"] },
    );
    expect(statusOf(result, "oauth.prm")).toBe("fail");
    expect(messageOf(result, "oauth.prm")).toMatch(
      /resource "https:\/\/elsewhere\.example\/api" is not a URL on .*; authorization server\(s\) are not absolute https URLs: http:\/\/auth\.example/,
    );
  });

  it("policy.content-signals: an invalid value, a line outside any group and the keys it leaves unset", async () => {
    const result = await checkStaticSite(
      {
        "/": page("<h1>Blog</h1>"),
        "/robots.txt": { type: "text/plain", body: "Content-Signal: search=maybe\n\nUser-agent: *\nAllow: /\n" },
      },
      { profile: ["content"] },
    );
    expect(statusOf(result, "policy.content-signals")).toBe("fail");
    expect(messageOf(result, "policy.content-signals")).toMatch(
      /^invalid Content-Signal entries: .*search=maybe.*; also: Content-Signal appears only outside a User-agent group; Content-Signal sets no valid key; missing /,
    );
  });

  it("a2a.card: credentials in the public card, and the media type it is served with", async () => {
    const result = await checkStaticSite(
      {
        "/": page("<h1>Agent</h1>"),
        "/.well-known/agent-card.json": (origin) => ({
          type: "text/plain",
          body: JSON.stringify({
            name: "Helper",
            description: "Answers questions",
            url: `${origin}/a2a`,
            version: "1.0.0",
            apiKey: "sk-live-123",
          }),
        }),
      },
      { profile: ["agent"] },
    );
    expect(statusOf(result, "a2a.card")).toBe("fail");
    expect(messageOf(result, "a2a.card")).toMatch(/the public card carries credentials: apiKey/);
    expect(messageOf(result, "a2a.card")).toMatch(/served as text\/plain/);
  });
});
